package io.kvledger.testkit.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

class ScenarioFolderTest {

    private static final String ABORT = """
            {"config": {"gpuBlockSize": 4}}
            {"cmd": "RegisterRequest", "requestId": "r", "promptTokens": [1, 2, 3, 4, 5, 6, 7, 8]}
            {"cmd": "MatchPrefix", "requestId": "r"}
            {"cmd": "AllocateBlocks", "requestId": "r", "blockIds": [1, 2]}
            {"cmd": "AbortRequest", "requestId": "r"}
            """;

    @TempDir
    Path dir;

    @Test
    void aScenarioThatMeetsItsExpectationsPasses() throws Throwable {
        Files.writeString(dir.resolve("abort.jsonl"), ABORT);
        Files.writeString(dir.resolve("abort.expect.jsonl"), """
                {"match": {"seq": 1, "type": "EngineConfigured", "gpuBlockSize": 4}}
                {"match": {"type": "BlocksReleased", "requestId": "r", "blockIds": [1, 2]}}
                {"none": {"type": "StoreJobScheduled"}}
                {"count": {"type": "RequestAborted"}, "n": 1}
                {"exit": 0}
                """);

        List<DynamicTest> tests = ScenarioFolder.tests(dir).toList();

        assertEquals(1, tests.size());
        assertEquals("abort.jsonl", tests.get(0).getDisplayName());
        tests.get(0).getExecutable().execute();
    }

    @Test
    void aScenarioThatMissesAnExpectationFailsNamingIt() throws Exception {
        Files.writeString(dir.resolve("abort.jsonl"), ABORT);
        Files.writeString(dir.resolve("abort.expect.jsonl"), "{\"match\": {\"type\": \"StoreJobScheduled\"}}\n{\"exit\": 0}\n");

        DynamicTest test = ScenarioFolder.tests(dir).findFirst().orElseThrow();

        AssertionFailedError failure = assertThrows(AssertionFailedError.class, () -> test.getExecutable().execute());
        assertTrue(failure.getMessage().contains("expectation line 1"), failure.getMessage());
        assertTrue(failure.getMessage().contains("no matching event"), failure.getMessage());
    }

    @Test
    void aMalformedLineExitsWithTwoKeepingTheEventsBeforeIt() throws Exception {
        Files.writeString(dir.resolve("bad.jsonl"), "{\"cmd\": \"ResetCache\"}\nnot json\n");
        Files.writeString(dir.resolve("bad.expect.jsonl"), """
                {"match": {"seq": 1, "type": "EngineConfigured"}}
                {"match": {"seq": 2, "type": "CacheReset"}}
                {"count": {}, "n": 2}
                {"exit": 2}
                """);

        assertEquals(List.of(), ScenarioFolder.failures(dir.resolve("bad.jsonl"), ScenarioFolder.IN_PROCESS));
    }

    @Test
    void aScenarioWithoutAnExpectationFileFailsAndAnEmptyFolderIsRefused() throws Exception {
        assertThrows(IllegalArgumentException.class, () -> ScenarioFolder.tests(dir));
        Files.writeString(dir.resolve("alone.jsonl"), ABORT);

        List<String> failures = ScenarioFolder.failures(dir.resolve("alone.jsonl"), ScenarioFolder.IN_PROCESS);

        assertEquals(1, failures.size());
        assertTrue(failures.get(0).startsWith("no expectation file"), failures.get(0));
    }
}
