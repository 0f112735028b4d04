package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 10, item 6: memory is bounded per line. A 50 MB line is refused at the documented limit (8 MiB,
 * {@code -Dkvledger.maxLineBytes}) with a message naming the line, in a 256 MB heap: never a raw
 * OutOfMemoryError or a stack trace. The events before it are kept.
 */
class LineMemoryBoundTest {

    @TempDir
    Path dir;

    @Test
    void aFiftyMegabyteLineIsRefusedInASmallHeap() throws Exception {
        Path scenario = hugeSecondLine("big.jsonl", "{\"cmd\": \"ResetCache\"}",
                "{\"cmd\":\"RegisterRequest\",\"requestId\":\"r\",\"promptTokens\":[");
        Path log = hugeSecondLine("big-log.jsonl", "{\"seq\": 1, \"type\": \"EngineConfigured\", \"gpuBlockSize\": 16, "
                + "\"blocksPerChunk\": 1, \"workers\": 1, \"cpuCapacityChunks\": 1024, \"releasePolicy\": \"FENCE\", "
                + "\"maxOffloadTokens\": null, \"offloadPromptOnly\": false}",
                "{\"seq\": 2, \"type\": \"RequestRegistered\", \"requestId\": \"r\", \"promptLength\": 1, \"promptTokens\": [");
        Path events = dir.resolve("events.jsonl");

        Kvledger.Result run = Kvledger.child(dir, events.toFile(), List.of("-Xmx256m"), "run", scenario.toString());
        Kvledger.Result audit = Kvledger.child(dir, dir.resolve("audit.txt").toFile(), List.of("-Xmx256m"), "audit", log.toString());

        assertEquals(2, run.exit(), run.toString());
        assertTrue(run.stderr().contains("line 2: longer than 8388608 bytes, the limit of one line"), run.stderr());
        assertTrue(run.quiet(), run.stderr());
        assertEquals(2, Files.readAllLines(events).size(), "EngineConfigured and the CacheReset before the long line");
        assertEquals(2, audit.exit(), audit.toString());
        assertTrue(audit.stderr().contains("line 2: longer than 8388608 bytes"), audit.stderr());
        assertTrue(audit.quiet(), audit.stderr());
    }

    private Path hugeSecondLine(String name, String first, String start) throws Exception {
        Path file = dir.resolve(name);
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write(first + "\n" + start);
            String tokens = "1,".repeat(1000);
            for (int i = 0; i < 25_000; i++) {
                out.write(tokens);
            }
            out.write("1]}\n");
        }
        return file;
    }

    @Test
    void theLimitIsASetting() throws Exception {
        Path scenario = Files.writeString(dir.resolve("s.jsonl"),
                "{\"cmd\":\"RegisterRequest\",\"requestId\":\"r\",\"promptTokens\":[" + "1,".repeat(600) + "1]}\n");

        Kvledger.Result run = Kvledger.child(dir, dir.resolve("o.jsonl").toFile(), List.of("-Dkvledger.maxLineBytes=1000"),
                "run", scenario.toString());

        assertEquals(2, run.exit(), run.toString());
        assertTrue(run.stderr().contains("line 1: longer than 1000 bytes"), run.stderr());
    }
}
