package io.kvledger.infrastructure.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kvledger bench}: every measurement on one file in one run, with its ratio to the raw parse. */
class BenchCommandTest {

    @TempDir
    Path dir;

    @Test
    void measuresParseReadAuditReplayAndSimulateOnOneFile() {
        Path log = dir.resolve("sim.jsonl");
        assertEquals(0, cli("simulate", "--requests", "100", "--seed", "2", "-o", log.toString()).exit);
        Result bench = cli("bench", log.toString(), "--rounds", "1", "--simulate", "50");
        assertEquals(0, bench.exit, bench.err);
        for (String tool : new String[] {"parse", "read", "audit", "replay"}) {
            assertTrue(bench.out.matches("(?s).*\\n" + tool + " +\\d+\\.\\d{3} s +\\d+ events/s +\\d+\\.\\d{3} s +"
                    + (tool.equals("parse") ? "1\\.00" : "\\d+\\.\\d\\d") + "x parse \\(CPU \\d+\\.\\d\\dx\\)\\n.*"), bench.out);
        }
        assertTrue(bench.out.contains("ratio to parse: wall (process CPU)"), bench.out);
        assertTrue(bench.out.contains("(50 requests, "), bench.out);
    }

    @Test
    void aMalformedLogIsNamedWithItsLine() throws IOException {
        Path log = dir.resolve("bad.jsonl");
        Files.writeString(log, "{\"seq\": 1, \"type\": \"RequestAborted\", \"requestId\": \"r\"}\n");
        Result bench = cli("bench", log.toString(), "--rounds", "1", "--simulate", "0");
        assertEquals(2, bench.exit);
        assertTrue(bench.err.contains("line 1: the first event must be EngineConfigured"), bench.err);
    }

    private record Result(int exit, String out, String err) {
    }

    private static Result cli(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), args);
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
