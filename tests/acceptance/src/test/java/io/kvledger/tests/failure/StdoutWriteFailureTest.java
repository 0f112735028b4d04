package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10, item 1: a failed write to stdout is noticed by every command that prints: exit 2 and a
 * message, never exit 0 with a cut-short output (a PrintStream swallowed these errors).
 */
class StdoutWriteFailureTest {

    @TempDir
    Path dir;

    @Test
    void runIntoDevFullExitsWithTwo() throws Exception {
        Kvledger.Result result = Kvledger.child(dir, new File("/dev/full"), List.of("-Xmx256m"), "run", Examples.prefillDecode());

        assertEquals(2, result.exit(), result.toString());
        assertTrue(result.stderr().contains("kvledger: cannot write standard output: No space left on device"), result.stderr());
        assertTrue(result.quiet(), result.stderr());
    }

    @Test
    void simulateIntoDevFullExitsWithTwo() throws Exception {
        Kvledger.Result result = Kvledger.child(dir, new File("/dev/full"), List.of("-Xmx256m"), "simulate", "--requests", "20");

        assertEquals(2, result.exit(), result.toString());
        assertTrue(result.stderr().contains("cannot write standard output: No space left on device"), result.stderr());
    }

    @Test
    void everyCommandThatPrintsNoticesAFullStdout() throws Exception {
        Path log = dir.resolve("log.jsonl");
        assertEquals(0, Kvledger.inProcess("run", Examples.abortMidPrefill(), "-o", log.toString()).exit());
        Path shrinkable = dir.resolve("s.jsonl");
        Files.writeString(shrinkable, "{\"cmd\": \"ResetCache\"}\n{\"cmd\": \"AbortRequest\", \"requestId\": \"x\"}\n");
        List<String[]> commands = List.of(
                new String[] {"run", Examples.prefillDecode()},
                new String[] {"simulate", "--requests", "20", "-o", dir.resolve("sim.jsonl").toString()},
                new String[] {"simulate", "--requests", "20"},
                new String[] {"replay", log.toString()},
                new String[] {"replay", log.toString(), "--json"},
                new String[] {"replay", log.toString(), "--request", "r", "--timeline"},
                new String[] {"audit", Examples.resource("/foreign-logs/vllm_abort_mid_prefill_crash_state.jsonl")},
                new String[] {"explain", log.toString(), "--job", "0"},
                new String[] {"shrink", shrinkable.toString(), "--until", "UNKNOWN_REQUEST"},
                new String[] {"--help"},
                new String[] {"help", "run"});
        for (String[] args : commands) {
            Kvledger.Result result = Kvledger.inProcess(FullOutputStream.disk(10), args);

            assertEquals(2, result.exit(), String.join(" ", args) + ": " + result);
            assertTrue(result.stderr().contains("cannot write standard output: No space left on device"),
                    String.join(" ", args) + ": " + result.stderr());
            assertTrue(result.quiet(), result.stderr());
        }
    }
}
