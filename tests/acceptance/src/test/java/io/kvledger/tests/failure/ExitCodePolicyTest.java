package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10, item 3: exit 1 means only what the contract says (audit's violations, explain's unknown job,
 * shrink's scenario that does not show the code); an unreadable input, an unwritable output, a bad
 * config in a log and a bad option are exit 2 with a message that says what and where.
 */
class ExitCodePolicyTest {

    private static final String CONFIGURED_ZERO = "{\"seq\": 1, \"type\": \"EngineConfigured\", \"gpuBlockSize\": 0, "
            + "\"blocksPerChunk\": 1, \"workers\": 1, \"cpuCapacityChunks\": 1024, \"releasePolicy\": \"FENCE\", "
            + "\"maxOffloadTokens\": null, \"offloadPromptOnly\": false}\n";

    @TempDir
    Path dir;

    @Test
    void aDirectoryAsInputIsExitTwoForEveryReader() throws Exception {
        Path directory = Files.createDirectory(dir.resolve("some-directory"));
        List<String[]> commands = List.of(new String[] {"audit", directory.toString()},
                new String[] {"replay", directory.toString()}, new String[] {"explain", directory.toString(), "--job", "0"},
                new String[] {"run", directory.toString()}, new String[] {"shrink", directory.toString(), "--until", "EXCEPTION"});
        for (String[] args : commands) {
            Kvledger.Result result = Kvledger.inProcess(args);

            assertEquals(2, result.exit(), args[0] + ": " + result);
            assertTrue(result.stderr().contains("cannot read " + directory + ": it is a directory"), args[0] + ": " + result.stderr());
            assertEquals("", result.stdout(), args[0]);
        }
    }

    @Test
    void aBadConfigInALogIsExitTwoNamingTheLine() throws Exception {
        Path log = Files.writeString(dir.resolve("zero.jsonl"), CONFIGURED_ZERO);
        for (String tool : List.of("audit", "replay", "explain")) {
            Kvledger.Result result = tool.equals("explain") ? Kvledger.inProcess(tool, log.toString(), "--job", "0")
                    : Kvledger.inProcess(tool, log.toString());

            assertEquals(2, result.exit(), tool + ": " + result);
            assertTrue(result.stderr().contains(log + ": line 1: EngineConfigured is not a valid config: gpuBlockSize"),
                    tool + ": " + result.stderr());
            assertTrue(result.quiet(), result.stderr());
        }
    }

    @Test
    void anUnwritableOutputIsExitTwoForEveryCommandThatWrites() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        String unwritable = file.resolve("out.jsonl").toString(); // its parent is a file
        Path scenario = Files.writeString(dir.resolve("s.jsonl"), "{\"cmd\": \"AbortRequest\", \"requestId\": \"x\"}\n");
        List<String[]> commands = List.of(new String[] {"run", Examples.prefillDecode(), "-o", unwritable},
                new String[] {"simulate", "--requests", "5", "-o", unwritable},
                new String[] {"simulate", "--requests", "5", "-o", dir.resolve("ok.jsonl").toString(), "--scenario", unwritable},
                new String[] {"shrink", scenario.toString(), "--until", "UNKNOWN_REQUEST", "-o", unwritable},
                new String[] {"run", Examples.prefillDecode(), "--store", unwritable});
        for (String[] args : commands) {
            Kvledger.Result result = Kvledger.inProcess(args);

            assertEquals(2, result.exit(), String.join(" ", args) + ": " + result);
            assertTrue(result.stderr().contains(unwritable), String.join(" ", args) + ": " + result.stderr());
            assertTrue(result.quiet(), result.stderr());
        }
    }

    @Test
    void exitOneIsLeftToTheContract() throws Exception {
        Kvledger.Result violations = Kvledger.inProcess("audit",
                Examples.resource("/foreign-logs/vllm_abort_mid_prefill_crash_state.jsonl"));
        Path log = dir.resolve("log.jsonl");
        Kvledger.inProcess("run", Examples.prefillDecode(), "-o", log.toString());
        Kvledger.Result noJob = Kvledger.inProcess("explain", log.toString(), "--job", "999");
        Kvledger.Result badCode = Kvledger.inProcess("shrink", Examples.prefillDecode(), "--until", "NOT_A_CODE");
        Kvledger.Result badOption = Kvledger.inProcess("audit", log.toString(), "--no-such-option");

        assertEquals(1, violations.exit(), violations.toString());
        assertEquals(1, noJob.exit(), noJob.toString());
        assertEquals(2, badCode.exit(), badCode.toString());
        assertTrue(badCode.stderr().contains("NOT_A_CODE"), badCode.stderr());
        assertEquals(2, badOption.exit(), badOption.toString());
    }
}
