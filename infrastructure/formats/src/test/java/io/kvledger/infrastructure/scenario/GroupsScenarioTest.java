package io.kvledger.infrastructure.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FreeWindowBlocks;
import io.kvledger.domain.command.InvalidCommand;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.infrastructure.json.EventJson;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Contract sections 7.1 and 7.2 on the scenario side: the groups config, its echo, per-group fields. */
class GroupsScenarioTest {

    private static ScenarioReader reader(String text) {
        return new ScenarioReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static EngineConfig config(String fields) throws Exception {
        return ((ScenarioLine.Config) reader("{\"config\": {" + fields + "}}\n").next()).config();
    }

    private static EngineCommand command(String config, String line) throws Exception {
        ScenarioReader reader = reader("{\"config\": {" + config + "}}\n" + line + "\n");
        reader.next();
        return ((ScenarioLine.Command) reader.next()).command();
    }

    private static final String TWO = "\"groups\": [{\"kind\": \"FULL\", \"blockSize\": 16}, "
            + "{\"kind\": \"SLIDING_WINDOW\", \"blockSize\": 4, \"slidingWindow\": 8}]";

    @Test
    void theEchoOfGroupsIsWrittenLastAsTheContractWritesIt() throws Exception {
        assertEquals("{\"seq\": 1, \"type\": \"EngineConfigured\", \"gpuBlockSize\": 16, \"blocksPerChunk\": 1, \"workers\": 1, "
                        + "\"cpuCapacityChunks\": 1024, \"releasePolicy\": \"FENCE\", \"maxOffloadTokens\": null, "
                        + "\"offloadPromptOnly\": false, \"groups\": [{\"kind\": \"FULL\", \"blockSize\": 16, \"eagle\": false}, "
                        + "{\"kind\": \"SLIDING_WINDOW\", \"blockSize\": 4, \"slidingWindow\": 8, \"eagle\": false}]}",
                EventJson.toLine(1, EngineConfigured.of(config(TWO))));
    }

    @Test
    void withoutGroupsTheEchoIsRevisionFours() throws Exception {
        assertEquals("{\"seq\": 1, \"type\": \"EngineConfigured\", \"gpuBlockSize\": 16, \"blocksPerChunk\": 1, \"workers\": 1, "
                        + "\"cpuCapacityChunks\": 1024, \"releasePolicy\": \"FENCE\", \"maxOffloadTokens\": null, "
                        + "\"offloadPromptOnly\": false}",
                EventJson.toLine(1, EngineConfigured.of(config(""))));
    }

    @Test
    void gpuBlockSizeIsTheLcmOfTheBlockSizes() throws Exception {
        EngineConfig config = config("\"groups\": [{\"kind\": \"FULL\", \"blockSize\": 4}, "
                + "{\"kind\": \"SLIDING_WINDOW\", \"blockSize\": 6, \"slidingWindow\": 8, \"eagle\": true}]");
        assertEquals(12, config.gpuBlockSize());
        assertEquals(List.of(KvCacheGroup.full(4), KvCacheGroup.slidingWindow(6, 8).asEagle()), config.groups());
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "\"groups\": []",
            "\"groups\": null",
            "\"groups\": {\"kind\": \"FULL\", \"blockSize\": 4}",
            "\"groups\": [4]",
            "\"groups\": [{\"blockSize\": 4}]",
            "\"groups\": [{\"kind\": \"FULL\"}]",
            "\"groups\": [{\"kind\": \"MAMBA\", \"blockSize\": 4}]",
            "\"groups\": [{\"kind\": null, \"blockSize\": 4}]",
            "\"groups\": [{\"kind\": \"FULL\", \"blockSize\": 0}]",
            "\"groups\": [{\"kind\": \"FULL\", \"blockSize\": null}]",
            "\"groups\": [{\"kind\": \"FULL\", \"blockSize\": 4.0}]",
            "\"groups\": [{\"kind\": \"FULL\", \"blockSize\": 4, \"slidingWindow\": 8}]",
            "\"groups\": [{\"kind\": \"SLIDING_WINDOW\", \"blockSize\": 4}]",
            "\"groups\": [{\"kind\": \"SLIDING_WINDOW\", \"blockSize\": 4, \"slidingWindow\": 0}]",
            "\"groups\": [{\"kind\": \"SLIDING_WINDOW\", \"blockSize\": 4, \"slidingWindow\": null}]",
            "\"groups\": [{\"kind\": \"FULL\", \"blockSize\": 4, \"eagle\": 1}]",
            "\"groups\": [{\"kind\": \"FULL\", \"blockSize\": 4, \"eagle\": null}]",
            "\"groups\": [{\"kind\": \"FULL\", \"blockSize\": 4, \"window\": 4}]",
            "\"gpuBlockSize\": 4, \"groups\": [{\"kind\": \"FULL\", \"blockSize\": 4}]",
            "\"groups\": [{\"kind\": \"FULL\", \"blockSize\": 4}], \"gpuBlockSize\": 4",
            "\"blocksPerChunk\": 2, \"groups\": [{\"kind\": \"SLIDING_WINDOW\", \"blockSize\": 4, \"slidingWindow\": 8}]",
            "\"groups\": [{\"kind\": \"SLIDING_WINDOW\", \"blockSize\": 4, \"slidingWindow\": 8}], \"blocksPerChunk\": 2",
    })
    void aBadGroupsConfigMakesTheConfigLineMalformed(String fields) {
        MalformedLineException e = assertThrows(MalformedLineException.class, () -> config(fields));
        assertEquals(1, e.line());
        assertTrue(e.configLine(), e.getMessage());
    }

    @Test
    void blocksPerChunkAboveOneIsAllowedWithFullGroupsOnly() throws Exception {
        assertEquals(2, config("\"blocksPerChunk\": 2, \"groups\": [{\"kind\": \"FULL\", \"blockSize\": 4}]").blocksPerChunk());
    }

    @Test
    void freeWindowBlocksIsAnUnknownCommandWithoutGroups() throws Exception {
        ScenarioReader reader = reader("{\"cmd\": \"FreeWindowBlocks\", \"requestId\": \"r\", \"blockIds\": [1]}\n");
        MalformedLineException e = assertThrows(MalformedLineException.class, reader::next);
        assertTrue(e.getMessage().contains("unknown cmd"), e.getMessage());
        assertEquals(new FreeWindowBlocks("r", PerGroup.single(List.of(1))),
                command("\"groups\": [{\"kind\": \"FULL\", \"blockSize\": 4}]",
                        "{\"cmd\": \"FreeWindowBlocks\", \"requestId\": \"r\", \"blockIds\": [1]}"));
    }

    @Test
    void aPerGroupFieldIsAListOfGListsWithNullBlocksKept() throws Exception {
        assertEquals(new AllocateBlocks("r", PerGroup.of(List.of(1, 2), Arrays.asList(null, 12)), 0),
                command(TWO, "{\"cmd\": \"AllocateBlocks\", \"requestId\": \"r\", \"blockIds\": [[1, 2], [null, 12]]}"));
    }

    @Test
    void withOneGroupAPerGroupFieldIsTheFlatList() throws Exception {
        assertEquals(new AllocateBlocks("r", PerGroup.single(Arrays.asList(null, 12)), 0),
                command("\"groups\": [{\"kind\": \"SLIDING_WINDOW\", \"blockSize\": 4, \"slidingWindow\": 8}]",
                        "{\"cmd\": \"AllocateBlocks\", \"requestId\": \"r\", \"blockIds\": [null, 12]}"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"[1, 2]", "[[1, 2], 3]", "[]", "7", "[[1], [\"x\"]]", "[[1], [2.5]]"})
    void aPerGroupFieldOfAnotherShapeIsAnInvalidArgument(String blockIds) throws Exception {
        EngineCommand parsed = command(TWO, "{\"cmd\": \"AllocateBlocks\", \"requestId\": \"r\", \"blockIds\": " + blockIds + "}");
        assertInstanceOf(InvalidCommand.class, parsed, blockIds);
        assertEquals("r", ((InvalidCommand) parsed).requestId());
    }

    @Test
    void withoutGroupsANullBlockIdIsAnInvalidArgumentAsBefore() throws Exception {
        assertInstanceOf(InvalidCommand.class,
                command("", "{\"cmd\": \"AllocateBlocks\", \"requestId\": \"r\", \"blockIds\": [null]}"));
    }

    @Test
    void aPerGroupEventFieldIsWrittenFlatForOneGroupAndAsGListsForMore() {
        assertEquals("{\"seq\": 3, \"type\": \"StoreJobScheduled\", \"jobId\": 0, \"requestId\": \"r\", \"chunkIndices\": [0], "
                        + "\"keys\": [\"k\"], \"blockIds\": [1]}",
                EventJson.toLine(3, new StoreJobScheduled(0, "r", List.of(0), List.of("k"), List.of(1))));
        assertEquals("{\"seq\": 3, \"type\": \"BlocksAllocated\", \"requestId\": \"r\", \"blockIds\": [[1], [null, 2]], "
                        + "\"externalTokens\": 0}",
                EventJson.toLine(3, new BlocksAllocated("r", PerGroup.of(List.of(1), Arrays.asList(null, 2)), 0)));
    }
}
