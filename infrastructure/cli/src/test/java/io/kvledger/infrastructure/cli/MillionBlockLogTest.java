package io.kvledger.infrastructure.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The log tools fold a request of a million blocks (allocated, preempted, allocated again, aborted, each
 * release naming them all) in time linear in the blocks: a quadratic release took minutes. Timing is in
 * docs/performance.md; here the tools must finish and agree with the rules.
 */
class MillionBlockLogTest {

    private static final int MILLION = 1_000_000;

    @TempDir
    Path dir;

    @Test
    void auditAndReplayFoldAMillionBlockRequest() throws IOException {
        Path log = dir.resolve("million.jsonl");
        try (Writer out = Files.newBufferedWriter(log, StandardCharsets.UTF_8)) {
            out.write("{\"seq\": 1, \"type\": \"EngineConfigured\", \"gpuBlockSize\": 16, \"blocksPerChunk\": 1, "
                    + "\"workers\": 1, \"cpuCapacityChunks\": 1024, \"releasePolicy\": \"FENCE\", "
                    + "\"maxOffloadTokens\": null, \"offloadPromptOnly\": false}\n");
            out.write("{\"seq\": 2, \"type\": \"RequestRegistered\", \"requestId\": \"r\", \"promptLength\": 1, "
                    + "\"promptTokens\": [5]}\n");
            blocks(out, 3, "BlocksAllocated", ", \"externalTokens\": 0");
            out.write("{\"seq\": 4, \"type\": \"RequestPreempted\", \"requestId\": \"r\"}\n");
            blocks(out, 5, "BlocksReleased", "");
            blocks(out, 6, "BlocksAllocated", ", \"externalTokens\": 0");
            out.write("{\"seq\": 7, \"type\": \"RequestAborted\", \"requestId\": \"r\"}\n");
            blocks(out, 8, "BlocksReleased", "");
        }
        Result audit = cli("audit", log.toString());
        assertEquals(0, audit.exit, audit.err + audit.out);
        assertEquals("", audit.out);
        Result atPreemption = cli("replay", log.toString(), "--at", "4", "--request", "r");
        assertEquals(0, atPreemption.exit, atPreemption.err);
        assertTrue(atPreemption.out.contains("table     1000000 blocks"), atPreemption.out);
        Result end = cli("replay", log.toString(), "--request", "r");
        assertEquals(0, end.exit, end.err);
        assertTrue(end.out.contains("is retired after seq 8"), end.out);
    }

    private static void blocks(Writer out, int seq, String type, String after) throws IOException {
        StringBuilder line = new StringBuilder(8 * MILLION);
        line.append("{\"seq\": ").append(seq).append(", \"type\": \"").append(type)
                .append("\", \"requestId\": \"r\", \"blockIds\": [");
        for (int block = 0; block < MILLION; block++) {
            line.append(block == 0 ? "" : ", ").append(block);
        }
        out.write(line.append(']').append(after).append("}\n").toString());
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
