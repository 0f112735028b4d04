package io.kvledger.tests.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Contract 7.8: the shapes of a grouped log. Each malformed log exits 2 with a message naming its line
 * and field, from every log tool that reads it (they share one decoder); a log without groups keeps
 * revision 4's reading, where a {@code WindowBlocksFreed} is an unknown type.
 */
class MalformedGroupedLogTest {

    private static final String HEAD = "{\"seq\": 1, \"type\": \"EngineConfigured\", \"gpuBlockSize\": 4, \"blocksPerChunk\": 1, "
            + "\"workers\": 1, \"cpuCapacityChunks\": 1024, \"releasePolicy\": \"FENCE\", \"maxOffloadTokens\": null, "
            + "\"offloadPromptOnly\": false";
    private static final String TWO_GROUPS = HEAD + ", \"groups\": [{\"kind\": \"FULL\", \"blockSize\": 4, \"eagle\": false}, "
            + "{\"kind\": \"SLIDING_WINDOW\", \"blockSize\": 4, \"slidingWindow\": 8, \"eagle\": false}]}";
    private static final String REGISTER = "{\"seq\": 2, \"type\": \"RequestRegistered\", \"requestId\": \"r\", "
            + "\"promptLength\": 8, \"promptTokens\": [1, 2, 3, 4, 5, 6, 7, 8]}";

    @TempDir
    Path dir;

    static Stream<Arguments> malformed() {
        return Stream.of(
                Arguments.of("groups_not_an_array", HEAD + ", \"groups\": {}}", 1, "groups"),
                Arguments.of("group_kind_unknown", HEAD + ", \"groups\": [{\"kind\": \"MAMBA\", \"blockSize\": 4}]}", 1, "groups[0].kind"),
                Arguments.of("group_window_missing", HEAD + ", \"groups\": [{\"kind\": \"SLIDING_WINDOW\", \"blockSize\": 4}]}", 1,
                        "groups[0].slidingWindow"),
                Arguments.of("group_field_unknown", HEAD + ", \"groups\": [{\"kind\": \"FULL\", \"blockSize\": 4, \"hash\": 1}]}", 1,
                        "groups[0].hash"),
                Arguments.of("gpu_block_size_not_lcm", TWO_GROUPS.replace("\"gpuBlockSize\": 4", "\"gpuBlockSize\": 8"), 1, "gpuBlockSize"),
                Arguments.of("blocks_per_chunk_with_sliding", TWO_GROUPS.replace("\"blocksPerChunk\": 1", "\"blocksPerChunk\": 2"), 1,
                        "blocksPerChunk"),
                Arguments.of("one_list_for_two_groups", TWO_GROUPS + "\n" + REGISTER + "\n{\"seq\": 3, \"type\": \"BlocksAllocated\", "
                        + "\"requestId\": \"r\", \"blockIds\": [1, 2], \"externalTokens\": 0}", 3, "BlocksAllocated.blockIds"),
                Arguments.of("three_lists_for_two_groups", TWO_GROUPS + "\n" + REGISTER + "\n{\"seq\": 3, \"type\": \"StoreJobScheduled\", "
                        + "\"jobId\": 0, \"requestId\": \"r\", \"chunkIndices\": [[0], [0], [0]], \"keys\": [[\"a\"], [\"b\"]], "
                        + "\"blockIds\": [[1], [2]]}", 3, "StoreJobScheduled.chunkIndices"),
                Arguments.of("null_in_a_full_group", TWO_GROUPS + "\n" + REGISTER + "\n{\"seq\": 3, \"type\": \"BlocksAllocated\", "
                        + "\"requestId\": \"r\", \"blockIds\": [[null, 2], [3, 4]], \"externalTokens\": 0}", 3, "BlocksAllocated.blockIds[0]"),
                Arguments.of("null_in_a_release", TWO_GROUPS + "\n" + REGISTER + "\n{\"seq\": 3, \"type\": \"BlocksReleased\", "
                        + "\"requestId\": \"r\", \"blockIds\": [[1], [null]]}", 3, "BlocksReleased.blockIds[1]"),
                Arguments.of("null_in_a_store", TWO_GROUPS + "\n" + REGISTER + "\n{\"seq\": 3, \"type\": \"StoreJobScheduled\", "
                        + "\"jobId\": 0, \"requestId\": \"r\", \"chunkIndices\": [[0], [0]], \"keys\": [[\"a\"], [\"b\"]], "
                        + "\"blockIds\": [[1], [null]]}", 3, "StoreJobScheduled.blockIds[1]"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformed")
    void everyLogToolRefusesItNamingLineAndField(String name, String log, int line, String field) throws Exception {
        Path file = dir.resolve(name + ".jsonl");
        Files.writeString(file, log + "\n");
        for (String tool : new String[] {"audit", "replay"}) {
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            int exit = KvLedgerCli.execute(new ByteArrayOutputStream(), new PrintStream(err, true, StandardCharsets.UTF_8), tool,
                    file.toString());
            String message = err.toString(StandardCharsets.UTF_8);
            assertEquals(2, exit, tool + ": " + message);
            assertTrue(message.contains("line " + line), tool + " names the line: " + message);
            assertTrue(message.contains(field), tool + " names " + field + ": " + message);
        }
    }

    @Test
    void aNullInASlidingGroupsAllocationIsAShape() throws Exception {
        Path file = dir.resolve("null_in_sliding.jsonl");
        Files.writeString(file, TWO_GROUPS + "\n" + REGISTER + "\n{\"seq\": 3, \"type\": \"BlocksAllocated\", \"requestId\": \"r\", "
                + "\"blockIds\": [[1, 2], [null, 4]], \"externalTokens\": 0}\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), "audit", file.toString());

        // It reads; the null at position 0 with c = 0 is inside the window, which is a finding, not a malformed line.
        assertEquals(1, exit, err.toString(StandardCharsets.UTF_8));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("seq 3 NULL_ENTRY_MISMATCH request r"), out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void withoutGroupsAWindowBlocksFreedIsAnUnknownTypeIgnored() throws Exception {
        Path file = dir.resolve("no_groups.jsonl");
        Files.writeString(file, HEAD + "}\n" + REGISTER + "\n{\"seq\": 3, \"type\": \"WindowBlocksFreed\", \"requestId\": \"r\", "
                + "\"blockIds\": [[], [7]]}\n");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();

        int exit = KvLedgerCli.execute(out, new PrintStream(err, true, StandardCharsets.UTF_8), "audit", file.toString());

        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
    }
}
