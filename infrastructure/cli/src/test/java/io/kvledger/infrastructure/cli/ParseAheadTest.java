package io.kvledger.infrastructure.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.log.LogEntry;
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
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parsing ahead on a second thread changes nothing the caller sees: the same entries in the same order,
 * then the same end or the same failure at the same line, after the same entries, for logs of many
 * batches broken at many places (inside a batch, at its edges, on the first and the last line, in a
 * damaged gzip stream). And no parse thread outlives its scan, whether read to the end or not.
 */
class ParseAheadTest {

    private static final String THREAD = "kvledger-parse-ahead";

    @TempDir
    Path dir;

    @Test
    void bothModesGiveTheSameEntriesAndTheSameFailuresOnLogsBrokenAtManyPlaces() throws Exception {
        int compared = 0;
        for (int seed = 1; seed <= 3; seed++) {
            Path log = simulated(seed, 60 * seed);
            List<String> lines = Files.readAllLines(log);
            assertTrue(lines.size() > 3 * ParseAhead.BATCH_ENTRIES, "several batches: " + lines.size());
            assertSame(log);
            int b = ParseAhead.BATCH_ENTRIES;
            for (int broken : new int[] {1, 2, b - 1, b, b + 1, 2 * b, 2 * b + 1, lines.size() / 2, lines.size()}) {
                for (String damage : new String[] {"{", "{\"seq\": 1, \"type\": \"RequestAborted\", \"requestId\": \"r\"}", "  ", ""}) {
                    List<String> copy = new ArrayList<>(lines);
                    copy.set(broken - 1, damage);
                    Path file = dir.resolve("broken-" + seed + "-" + broken + "-" + damage.length() + ".jsonl");
                    Files.write(file, copy);
                    assertSame(file);
                    compared++;
                }
            }
            byte[] bytes = Files.readAllBytes(log);
            Path cut = dir.resolve("cut-" + seed + ".jsonl");
            Files.write(cut, Arrays.copyOf(bytes, bytes.length * 2 / 3));
            assertSame(cut);
            Path gz = dir.resolve("cut-" + seed + ".jsonl.gz");
            Files.write(gz, Arrays.copyOf(gzip(bytes), gzip(bytes).length / 2));
            assertSame(gz);
            compared += 2;
        }
        Path empty = dir.resolve("empty.jsonl");
        Files.writeString(empty, "\n\n");
        assertSame(empty);
        assertTrue(compared > 100, "compared " + compared);
        assertEquals(0, parseThreads(), "no parse thread is left");
    }

    @Test
    void closingEarlyStopsTheThreadEvenWhenItWaitsOnAFullQueue() throws Exception {
        Path log = simulated(4, 200);
        try (LogScan scan = LogScan.open(log, "test", LogScan.Preparation.NONE, false, true)) {
            for (int i = 0; i < 10; i++) {
                assertNotNull(scan.next());
            }
            Thread.sleep(200); // the parse thread fills its queue and waits
            assertEquals(1, parseThreads());
        }
        assertEquals(0, parseThreads(), "close() joined the parse thread");
        try (LogScan scan = LogScan.open(log, "test", LogScan.Preparation.NONE, false, true)) {
            assertEquals(null, scan.base(), "a plain log, from its start");
            assertEquals(1, parseThreads()); // opened and closed without a line taken
        }
        assertEquals(0, parseThreads());
    }

    @Test
    void progressReachesTheWholeFileWhenParsingAhead() throws Exception {
        Path log = simulated(5, 100);
        long size = Files.size(log);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(OutputStream.nullOutputStream(), new PrintStream(err, true, StandardCharsets.UTF_8),
                "audit", "--progress", log.toString());
        String text = err.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, text);
        String last = text.lines().reduce((a, b) -> b).orElse("");
        assertTrue(last.startsWith("audit: 100% "), text);
        assertTrue(last.contains(String.format(java.util.Locale.ROOT, "%.1f MB / %.1f MB", size / 1e6, size / 1e6)), text);
        assertTrue(last.contains(" events in "), text);
    }

    private void assertSame(Path file) throws IOException {
        Outcome ahead = outcome(file, true);
        Outcome inline = outcome(file, false);
        assertEquals(inline, ahead, file.toString());
        assertEquals(0, parseThreads(), "no parse thread outlives its scan: " + file);
    }

    private record Outcome(List<LogEntry> entries, String failure) {
    }

    private static Outcome outcome(Path file, boolean parseAhead) throws IOException {
        List<LogEntry> entries = new ArrayList<>();
        try (LogScan scan = LogScan.open(file, "test", LogScan.Preparation.NONE, false, parseAhead)) {
            for (LogEntry entry = scan.next(); entry != null; entry = scan.next()) {
                entries.add(entry);
            }
            return new Outcome(entries, null);
        } catch (Exception e) {
            return new Outcome(entries, e.getClass().getName() + ": " + e.getMessage());
        }
    }

    private static long parseThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().equals(THREAD) && t.isAlive()).count();
    }

    private Path simulated(int seed, int requests) {
        Path log = dir.resolve("sim-" + seed + ".jsonl");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(OutputStream.nullOutputStream(), new PrintStream(err, true, StandardCharsets.UTF_8),
                "simulate", "--requests", String.valueOf(requests), "--seed", String.valueOf(seed), "-o", log.toString());
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        return log;
    }

    /** The bytes gzip-compressed (ParseAheadToolsTest cuts them too). */
    static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(bytes);
        }
        return out.toByteArray();
    }
}
