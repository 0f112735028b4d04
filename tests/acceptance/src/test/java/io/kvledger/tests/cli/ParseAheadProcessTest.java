package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.cli.KvLedgerCli;
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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log the tools read on a second thread, as the packaged jar does on a machine of two cores or more
 * (forced here with {@code -XX:ActiveProcessorCount=2}), fails as it does on one thread
 * ({@code -Dkvledger.parseAhead=false}): a real damaged file, a real child process, the same exit code 2,
 * the same message naming the same line, the same findings printed before it; and the process ends (a
 * failure on the parse thread never leaves the tool waiting).
 */
class ParseAheadProcessTest {

    /** A line well past the first parse batches (512 entries each), so the reader is ahead when it fails. */
    private static final int BROKEN = 1700;

    @TempDir
    Path dir;

    private List<String> lines;

    @BeforeEach
    void simulateALogOfManyBatches() throws IOException {
        Path log = dir.resolve("log.jsonl");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(OutputStream.nullOutputStream(), new PrintStream(err, true, StandardCharsets.UTF_8),
                "simulate", "--requests", "80", "--seed", "3", "-o", log.toString());
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        lines = Files.readAllLines(log);
        assertTrue(lines.size() > BROKEN + 1000, "lines " + lines.size());
    }

    @Test
    void aMalformedLineIsNamedAndTheFindingsBeforeItArePrintedAsOnOneThread() throws Exception {
        List<String> copy = new ArrayList<>(lines);
        copy.remove(400); // a finding long before the malformed line, printed before the tool stops
        copy.set(BROKEN - 1, copy.get(BROKEN - 1).substring(0, 30));
        Path file = Files.write(dir.resolve("broken.jsonl"), copy);

        for (String tool : List.of("audit", "replay", "trace")) {
            CliRun two = kvledger(true, tool, file.toString());
            CliRun one = kvledger(false, tool, file.toString());
            assertEquals(2, two.exit(), tool + ": " + two.stderr());
            assertTrue(two.stderr().contains("line " + BROKEN + ":"), tool + ": " + two.stderr());
            assertEquals(one, two, tool);
        }
        assertFalse(kvledger(true, "audit", file.toString()).stdout().isEmpty(), "the audit's findings before the line");
    }

    @Test
    void aGzipStreamCutShortFailsAsOnOneThread() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(bytes)) {
            gz.write((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8));
        }
        byte[] whole = bytes.toByteArray();
        Path file = Files.write(dir.resolve("cut.jsonl.gz"), Arrays.copyOf(whole, whole.length / 2));

        for (String tool : List.of("audit", "replay")) {
            CliRun two = kvledger(true, tool, file.toString());
            CliRun one = kvledger(false, tool, file.toString());
            assertEquals(2, two.exit(), tool + ": " + two.stderr());
            assertTrue(two.stderr().startsWith("kvledger: "), two.stderr());
            assertEquals(one, two, tool);
        }
    }

    private CliRun kvledger(boolean parseAhead, String... args) throws IOException, InterruptedException {
        return CliRun.ofJar(dir, List.of("-XX:ActiveProcessorCount=2", "-Dkvledger.parseAhead=" + parseAhead), args);
    }
}
