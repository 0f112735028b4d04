package io.kvledger.tests.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import io.kvledger.tests.cli.CliRun;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every reader fuzzed through the command line: scenarios through {@code run}, logs through
 * {@code replay}, {@code audit} and {@code explain}, store files through {@code run --store}. Properties:
 * no raw exception or stack trace; exit 0, 1 or 2 as the contract says; exit 2 names the line; a failed
 * run's output is exactly the run of the lines before the bad one; a refused store is left as it was
 * and an accepted one keeps what it held up to a line boundary.
 *
 * <p>{@code -Dkvledger.fuzz.cases=N} sets the cases per reader (default 100, about a minute in all with
 * the jar cases); {@code mvn -B -Pfuzz -pl tests/acceptance -am verify -Dtest=ReaderFuzzTest -Dsurefire.failIfNoSpecifiedTests=false}
 * runs the long opt-in version (2000 cases per reader).
 */
class ReaderFuzzTest {

    private static final int CASES = Integer.getInteger("kvledger.fuzz.cases", 100);
    private static final long SEED = Long.getLong("kvledger.fuzz.seed", 20261201L);
    private static final int LINE_LIMIT = 1 << 16;
    private static final Pattern LINE = Pattern.compile("line (\\d+): ");

    @TempDir
    static Path dir;

    private static List<String> scenarioLines;
    private static List<String> logLines;
    private static List<String> storeLines;
    private static String previousLimit;

    @BeforeAll
    static void validInputs() throws IOException {
        previousLimit = System.getProperty("kvledger.maxLineBytes");
        // A small line limit, so that inputs over it are cheap to make (the limit itself is the same code).
        System.setProperty("kvledger.maxLineBytes", Integer.toString(LINE_LIMIT));
        Path log = dir.resolve("valid-log.jsonl");
        Path scenario = dir.resolve("valid-scenario.jsonl");
        Path store = dir.resolve("valid-store.jsonl");
        assertEquals(0, cli("simulate", "--requests", "6", "--seed", "7", "-o", log.toString(), "--scenario", scenario.toString()).exit);
        assertEquals(0, cli("run", scenario.toString(), "--store", store.toString(), "-o", dir.resolve("x").toString()).exit);
        scenarioLines = Files.readAllLines(scenario);
        logLines = Files.readAllLines(log);
        storeLines = Files.readAllLines(store);
    }

    @AfterAll
    static void restoreLimit() {
        if (previousLimit == null) {
            System.clearProperty("kvledger.maxLineBytes");
        } else {
            System.setProperty("kvledger.maxLineBytes", previousLimit);
        }
    }

    @Test
    void scenariosThroughRun() throws IOException {
        for (int i = 0; i < CASES; i++) {
            long seed = SEED + i;
            byte[] input = new Mutations(seed, LINE_LIMIT).file(scenarioLines);
            keep(seed, input);
            Path file = Files.write(dir.resolve("s-" + seed + ".jsonl"), input);
            Path out = dir.resolve("o-" + seed + ".jsonl");

            Run run = cli("run", file.toString(), "-o", out.toString());

            check(seed, run, Set.of(0, 2), file);
            if (run.exit == 2) {
                keepsTheEventsBeforeTheBadLine(seed, run, input, out);
            }
            Files.deleteIfExists(file);
            Files.deleteIfExists(out);
        }
    }

    @Test
    void logsThroughReplayAuditAndExplain() throws IOException {
        for (int i = 0; i < CASES; i++) {
            long seed = SEED + 100_000 + i;
            byte[] input = new Mutations(seed, LINE_LIMIT).file(logLines);
            keep(seed, input);
            Path file = Files.write(dir.resolve("l-" + seed + ".jsonl"), input);

            check(seed, cli("replay", file.toString()), Set.of(0, 2), file);
            check(seed, cli("replay", file.toString(), "--request", "r1", "--timeline", "--json"), Set.of(0, 2), file);
            check(seed, cli("audit", file.toString()), Set.of(0, 1, 2), file);
            check(seed, cli("explain", file.toString(), "--job", "0"), Set.of(0, 1, 2), file);
            Files.delete(file);
        }
    }

    @Test
    void storesThroughOpen() throws IOException {
        Path commands = Files.writeString(dir.resolve("reset.jsonl"), "{\"cmd\": \"ResetCache\"}\n");
        for (int i = 0; i < CASES; i++) {
            long seed = SEED + 200_000 + i;
            byte[] before = new Mutations(seed, LINE_LIMIT).file(storeLines);
            Path store = Files.write(dir.resolve("st-" + seed + ".jsonl"), before);

            keep(seed, before);
            Run run = cli("run", commands.toString(), "--store", store.toString(), "-o", dir.resolve("x").toString());

            check(seed, run, Set.of(0, 2), store);
            byte[] after = Files.readAllBytes(store);
            if (run.exit == 2) {
                assertTrue(Arrays.equals(before, after), seed + ": a refused store is left as it was: " + run.stderr);
            } else {
                // Nothing is lost silently: whatever is not kept was reported cut, and the cut is at a line boundary.
                Matcher cut = Pattern.compile("cut (\\d+) bytes").matcher(run.stderr);
                int kept = cut.find() ? before.length - Integer.parseInt(cut.group(1)) : before.length;
                assertTrue(kept == 0 || before[kept - 1] == '\n' || kept == before.length,
                        seed + ": the cut is at a line boundary (" + kept + " of " + before.length + ")");
                assertTrue(Arrays.equals(before, 0, kept, after, 0, kept), seed + ": the store keeps what it held up to the cut: "
                        + run.stderr);
                assertEquals(0, cli("replay", store.toString()).exit, seed + ": the store opened reads as a log");
            }
            Files.delete(store);
        }
    }

    /** A few cases through the packaged jar, in a small heap: nothing raw reaches the user there either. */
    @Test
    void throughThePackagedJarInASmallHeap() throws Exception {
        for (int i = 0; i < 4; i++) {
            long seed = SEED + 300_000 + i;
            Path scenario = Files.write(dir.resolve("j-" + seed + ".jsonl"), new Mutations(seed, 1 << 23).file(scenarioLines));
            Path log = Files.write(dir.resolve("jl-" + seed + ".jsonl"), new Mutations(seed, 1 << 23).file(logLines));
            for (String[] args : List.of(new String[] {"run", scenario.toString()}, new String[] {"audit", log.toString()})) {
                CliRun run = CliRun.ofJar(dir, List.of("-Xmx128m"), args);
                check(seed, new Run(run.exit(), "", run.stderr()),
                        args[0].equals("run") ? Set.of(0, 2) : Set.of(0, 1, 2), Path.of(args[1]));
            }
        }
    }

    private static void check(long seed, Run run, Set<Integer> allowed, Path input) {
        String what = "seed " + seed + " (" + input.getFileName() + "): exit " + run.exit + ", stderr: " + abbreviate(run.stderr);
        if (!allowed.contains(run.exit)) {
            fail(what);
        }
        for (String raw : List.of("\tat ", "Exception", "Error:", "StreamReadConstraints", "FAIL_ON_", "internal error",
                "com.fasterxml", "jackson")) {
            if (run.stderr.contains(raw)) {
                fail("raw " + raw + ": " + what);
            }
        }
        if (run.exit == 2) {
            assertTrue(LINE.matcher(run.stderr).find() || run.stderr.contains("the log is empty"),
                    "exit 2 names the line: " + what);
        }
    }

    /** The output of a run stopped by a bad line is exactly the output of the lines before it. */
    private static void keepsTheEventsBeforeTheBadLine(long seed, Run run, byte[] input, Path out) throws IOException {
        Matcher line = LINE.matcher(run.stderr);
        assertTrue(line.find(), run.stderr);
        int bad = Integer.parseInt(line.group(1));
        int end = 0;
        for (int n = 1; n < bad; n++) {
            while (input[end] != '\n') {
                end++;
            }
            end++;
        }
        Path prefix = Files.write(dir.resolve("prefix-" + seed + ".jsonl"), Arrays.copyOf(input, end));
        Path prefixOut = dir.resolve("prefix-out-" + seed + ".jsonl");
        Run before = cli("run", prefix.toString(), "-o", prefixOut.toString());
        assertEquals(0, before.exit, seed + ": the lines before the bad one run: " + before.stderr);
        List<String> kept = Files.readAllLines(out);
        if (!kept.isEmpty()) {
            assertEquals(Files.readAllLines(prefixOut), kept, seed + ": the events of the lines before line " + bad + " are kept");
        }
        Files.delete(prefix);
        Files.delete(prefixOut);
    }

    /** The input of the case running now, in target/fuzz-cases/last-SEED, to reproduce a failure by hand. */
    private static void keep(long seed, byte[] input) throws IOException {
        Path kept = Path.of("target", "fuzz-cases");
        Files.createDirectories(kept);
        try (var old = Files.list(kept)) {
            for (Path file : old.toList()) {
                Files.delete(file);
            }
        }
        Files.write(kept.resolve("last-" + seed), input);
    }

    private static String abbreviate(String text) {
        return text.length() < 600 ? text : text.substring(0, 600) + "...";
    }

    private record Run(int exit, String stdout, String stderr) {
    }

    private static Run cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), args);
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
