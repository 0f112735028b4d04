package io.kvledger.infrastructure.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every log tool prints the same bytes whether the log is parsed ahead on a second thread or on the tool's
 * own: stdout, stderr (so a malformed line is named by the same line number and message) and exit code, and
 * {@code trace}'s file, over many simulated logs of several parse batches, whole and damaged (a line made
 * malformed, dropped or repeated at a seeded place, the last line torn, a gzip stream cut short).
 */
class ParseAheadToolsTest {

    @TempDir
    Path dir;

    @Test
    void everyToolPrintsTheSameBytesOnOneThreadAndOnTwo() throws Exception {
        int compared = 0;
        int malformed = 0;
        for (int seed = 1; seed <= 6; seed++) {
            Path log = simulated(seed);
            List<String> lines = Files.readAllLines(log);
            assertTrue(lines.size() > 2 * ParseAhead.BATCH_ENTRIES, "several batches: " + lines.size());
            Random random = new Random(seed);
            for (Path file : damaged(log, lines, random, seed)) {
                long middle = Math.max(2, lines.size() / 2);
                for (List<String> args : List.of(List.of("audit"), List.of("audit", "--explain", String.valueOf(middle)),
                        List.of("replay"), List.of("replay", "--json"), List.of("replay", "--at", String.valueOf(middle)),
                        List.of("explain", "--job", String.valueOf(random.nextInt(20))), List.of("trace", "-o", "TRACE"))) {
                    String oneThread = run(file, args, false);
                    String twoThreads = run(file, args, true);
                    assertEquals(oneThread, twoThreads, args + " " + file.getFileName());
                    if (oneThread.startsWith("2\n") && oneThread.contains(": line ")) {
                        malformed++;
                    }
                    compared++;
                }
            }
        }
        assertTrue(compared >= 6 * 7 * 7, "compared " + compared);
        assertTrue(malformed >= 6 * 3 * 6, "runs that stopped at a malformed line: " + malformed);
    }

    /** The log itself, then damaged copies of it. */
    private List<Path> damaged(Path log, List<String> lines, Random random, int seed) throws IOException {
        List<Path> files = new ArrayList<>(List.of(log));
        int b = ParseAhead.BATCH_ENTRIES;
        int[] places = {b * (1 + random.nextInt(lines.size() / b - 1)), 2 + random.nextInt(lines.size() - 2)};
        for (int place : places) {
            List<String> copy = new ArrayList<>(lines);
            copy.set(place - 1, copy.get(place - 1).substring(0, copy.get(place - 1).length() / 2));
            files.add(write("malformed-" + seed + "-" + place + ".jsonl", copy));
        }
        List<String> dropped = new ArrayList<>(lines);
        dropped.remove(places[1] - 1);
        files.add(write("dropped-" + seed + ".jsonl", dropped));
        List<String> repeated = new ArrayList<>(lines);
        repeated.add(places[0], lines.get(places[0] - 1));
        files.add(write("repeated-" + seed + ".jsonl", repeated));
        byte[] bytes = Files.readAllBytes(log);
        Path torn = dir.resolve("torn-" + seed + ".jsonl");
        Files.write(torn, Arrays.copyOf(bytes, bytes.length - 7));
        files.add(torn);
        Path cut = dir.resolve("cut-" + seed + ".jsonl.gz");
        byte[] gzipped = ParseAheadTest.gzip(bytes);
        Files.write(cut, Arrays.copyOf(gzipped, gzipped.length * 2 / 3));
        files.add(cut);
        return files;
    }

    private Path write(String name, List<String> lines) throws IOException {
        return Files.write(dir.resolve(name), lines);
    }

    /** Exit code, stdout, stderr and any trace file of one tool's run in this process. */
    private String run(Path file, List<String> toolArgs, boolean parseAhead) throws IOException {
        Path trace = dir.resolve("run.trace.json"); // one name: trace says where it wrote
        Files.deleteIfExists(trace);
        List<String> args = new ArrayList<>();
        for (String arg : toolArgs) {
            args.add(arg.equals("TRACE") ? trace.toString() : arg);
        }
        args.add(file.toString());
        String before = System.getProperty("kvledger.parseAhead");
        System.setProperty("kvledger.parseAhead", String.valueOf(parseAhead));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit;
        try {
            exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), args.toArray(String[]::new));
        } finally {
            if (before == null) {
                System.clearProperty("kvledger.parseAhead");
            } else {
                System.setProperty("kvledger.parseAhead", before);
            }
        }
        String traced = Files.exists(trace) ? Files.readString(trace, StandardCharsets.UTF_8) : "(no trace)";
        return exit + "\n" + out.toString(StandardCharsets.UTF_8) + "\n" + err.toString(StandardCharsets.UTF_8) + "\n" + traced;
    }

    private Path simulated(int seed) {
        Path log = dir.resolve("sim-" + seed + ".jsonl");
        List<String> args = new ArrayList<>(List.of("simulate", "--requests", String.valueOf(30 + 4 * seed),
                "--seed", String.valueOf(seed), "--request-tokens", "256", "-o", log.toString()));
        if (seed % 2 == 0) {
            args.addAll(List.of("--release", "DELAY_FREE", "--preempt-rate", "0.3"));
        }
        if (seed % 3 == 0) {
            args.addAll(List.of("--model", "gpt-oss"));
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(OutputStream.nullOutputStream(), new PrintStream(err, true, StandardCharsets.UTF_8),
                args.toArray(String[]::new));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        return log;
    }
}
