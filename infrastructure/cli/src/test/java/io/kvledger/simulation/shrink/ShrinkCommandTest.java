package io.kvledger.simulation.shrink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code kvledger shrink SCENARIO --until CODE [-o OUT]} with the real engine as its oracle. */
class ShrinkCommandTest {

    @TempDir
    Path dir;

    @Test
    void writesTheShrunkScenarioThatRunStillShowsTheCodeIn() throws Exception {
        Path scenario = dir.resolve("stale.jsonl");
        Files.writeString(scenario, """
                {"config": {"gpuBlockSize": 2, "workers": 2}}
                {"cmd": "RegisterRequest", "requestId": "long-name", "promptTokens": [5, 6, 7, 8]}
                {"cmd": "RegisterRequest", "requestId": "other", "promptTokens": [9]}
                {"cmd": "AllocateBlocks", "requestId": "long-name", "blockIds": [3, 4]}
                {"cmd": "ComputeTokens", "requestId": "long-name", "tokens": 4}
                {"cmd": "AbortRequest", "requestId": "other"}
                {"cmd": "ResetCache"}
                {"cmd": "CompleteTransfer", "jobId": 0}
                """);
        Path out = dir.resolve("shrunk.jsonl");

        Result result = shrink(scenario.toString(), "--until", "STALE_JOB", "-o", out.toString());

        assertEquals(0, result.exit, result.err);
        assertEquals("""
                {"config": {"gpuBlockSize": 2, "blocksPerChunk": 1, "workers": 1, "cpuCapacityChunks": 1024, "releasePolicy": "FENCE", "maxOffloadTokens": null, "offloadPromptOnly": false}}
                {"cmd": "RegisterRequest", "requestId": "r0", "promptTokens": [0, 1]}
                {"cmd": "AllocateBlocks", "requestId": "r0", "blockIds": [0]}
                {"cmd": "ComputeTokens", "requestId": "r0", "tokens": 2}
                {"cmd": "ResetCache"}
                {"cmd": "CompleteTransfer", "jobId": 0}
                """, Files.readString(out)); // lines as written, only simpler
        assertTrue(result.err.contains("shrunk 7 commands to 5 still showing STALE_JOB"), result.err);
    }

    @Test
    void aScenarioThatDoesNotShowTheCodeExitsWithOne() throws Exception {
        Path scenario = dir.resolve("clean.jsonl");
        Files.writeString(scenario, "{\"cmd\": \"RegisterRequest\", \"requestId\": \"a\", \"promptTokens\": [1]}\n");
        Result result = shrink(scenario.toString(), "--until", "EXCEPTION");
        assertEquals(1, result.exit);
        assertTrue(result.err.contains("does not show EXCEPTION"), result.err);
    }

    @Test
    void aMissingOrMalformedScenarioExitsWithTwo() throws Exception {
        assertEquals(2, shrink(dir.resolve("none.jsonl").toString(), "--until", "EXCEPTION").exit);
        Path malformed = dir.resolve("bad.jsonl");
        Files.writeString(malformed, "{\"cmd\": \"NoSuchCommand\"}\n");
        Result result = shrink(malformed.toString(), "--until", "EXCEPTION");
        assertEquals(2, result.exit);
        assertTrue(result.err.contains("line 1"), result.err);
    }

    @Test
    void anUnknownCodeIsAUsageErrorNamingTheKnownOnes() throws Exception {
        Path scenario = dir.resolve("clean.jsonl");
        Files.writeString(scenario, "{\"cmd\": \"RegisterRequest\", \"requestId\": \"a\", \"promptTokens\": [1]}\n");
        Result result = shrink(scenario.toString(), "--until", "JOB_ENDED_EARLY");
        assertEquals(2, result.exit, result.err);
        assertTrue(result.err.contains("unknown code JOB_ENDED_EARLY") && result.err.contains("ACK_MISMATCH")
                && result.err.contains("STALLED") && result.err.contains("INVALID_STATE"), result.err);
    }

    record Result(int exit, String out, String err) {
    }

    private static Result shrink(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "shrink";
        System.arraycopy(args, 0, all, 1, args.length);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), all);
        return new Result(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
