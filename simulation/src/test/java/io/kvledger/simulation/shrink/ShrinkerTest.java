package io.kvledger.simulation.shrink;

import io.kvledger.application.check.FindingCodes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.application.check.EventLogRules;
import io.kvledger.application.finding.FindingCode;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.scenario.ScenarioWriter;
import io.kvledger.simulation.SimulationOptions;
import io.kvledger.simulation.Simulator;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The shrinker against vLLM's pre-fix abort rule ({@link PreFixAbortRule}, in tests only): a long
 * simulated scenario shrinks to the few-command abort sequence, which the real rules handle cleanly.
 */
class ShrinkerTest {

    @Test
    void aLongSimulatedScenarioShrinksToRegisterThenAbortUnderThePreFixRule() throws Exception {
        Scenario simulated = simulatedScenario(120, 11);
        assertTrue(simulated.size() > 3000, "a long scenario: " + simulated.size() + " commands");
        ViolationOracle broken = new ViolationOracle(DecisionExecution.of(new PreFixAbortRule()), EventLogRules::new,
                ViolationOracle.EXCEPTION);

        Shrinker.Result result = new Shrinker(broken).shrink(simulated);

        List<String> commands = result.scenario().lines().stream().map(line -> line.get("cmd").textValue()).toList();
        assertEquals(List.of("RegisterRequest", "AbortRequest"), commands, result.scenario().text());
        assertTrue(broken.shows(result.scenario()));
        // A queued request aborted: C tokens are enough for one key and no block.
        int chunkTokens = result.scenario().config().chunkTokens();
        assertEquals(chunkTokens, result.scenario().lines().get(0).get("promptTokens").size(), result.scenario().text());
        assertFalse(realEngine(ViolationOracle.EXCEPTION).shows(result.scenario()), "the real rules do not crash on it");
        System.out.println("shrunk " + result.originalLines() + " lines in " + result.oracleRuns() + " runs to:\n"
                + result.scenario().text());
    }

    @Test
    void withTheTableClampAloneAnAbortMidPrefillStoresNeverComputedTokensAndThatShrinksToo() throws Exception {
        Scenario simulated = simulatedScenario(120, 11);
        ViolationOracle broken = new ViolationOracle(DecisionExecution.of(PreFixAbortRule.withTableClamp()),
                EventLogRules::new, FindingCodes.parse("STORE_BEYOND_BOUND"));
        assertTrue(broken.shows(simulated));

        Shrinker.Result result = new Shrinker(broken).shrink(simulated);

        List<String> commands = result.scenario().lines().stream().map(line -> line.get("cmd").textValue()).toList();
        assertEquals("RegisterRequest", commands.get(0), result.scenario().text());
        assertEquals("AbortRequest", commands.get(commands.size() - 1), result.scenario().text());
        assertTrue(commands.size() <= 4 && commands.contains("AllocateBlocks"), result.scenario().text());
        assertFalse(realEngine(FindingCodes.parse("STORE_BEYOND_BOUND")).shows(result.scenario()));
        System.out.println("shrunk " + result.originalLines() + " lines in " + result.oracleRuns() + " runs to:\n"
                + result.scenario().text());
    }

    @Test
    void theResultIsOneMinimal() throws Exception {
        Scenario scenario = Scenario.parse("""
                {"cmd": "RegisterRequest", "requestId": "a", "promptTokens": [1, 2, 3]}
                {"cmd": "RegisterRequest", "requestId": "b", "promptTokens": [4]}
                {"cmd": "AbortRequest", "requestId": "a"}
                {"cmd": "AbortRequest", "requestId": "a"}
                {"cmd": "FinishRequest", "requestId": "b", "reason": "STOPPED"}
                """);
        ViolationOracle terminated = new ViolationOracle(ScenarioExecution.ledger(), EventLogRules::new, FindingCodes.parse("REQUEST_TERMINATED"));

        Shrinker.Result result = new Shrinker(terminated).shrink(scenario);

        assertEquals("""
                {"config": {"gpuBlockSize": 16, "blocksPerChunk": 1, "workers": 1, "cpuCapacityChunks": 1024, "releasePolicy": "FENCE", "maxOffloadTokens": null, "offloadPromptOnly": false}}
                {"cmd": "RegisterRequest", "requestId": "r0", "promptTokens": [0]}
                {"cmd": "AbortRequest", "requestId": "r0"}
                {"cmd": "AbortRequest", "requestId": "r0"}
                """, result.scenario().text());
    }

    @Test
    void aCompletionFollowsItsJobWhenEarlierJobsAreRemoved() throws Exception {
        // Job 0 is r0's store, job 1 is r1's; the duplicate completion is r1's, so without anchoring the
        // removal of r0 would turn "jobId 1" into a completion of a job that no longer exists.
        Scenario scenario = Scenario.parse("""
                {"config": {"gpuBlockSize": 2}}
                {"cmd": "RegisterRequest", "requestId": "r0", "promptTokens": [1, 2]}
                {"cmd": "AllocateBlocks", "requestId": "r0", "blockIds": [0]}
                {"cmd": "ComputeTokens", "requestId": "r0", "tokens": 2}
                {"cmd": "RegisterRequest", "requestId": "r1", "promptTokens": [3, 4]}
                {"cmd": "AllocateBlocks", "requestId": "r1", "blockIds": [1]}
                {"cmd": "ComputeTokens", "requestId": "r1", "tokens": 2}
                {"cmd": "CompleteTransfer", "jobId": 1}
                {"cmd": "CompleteTransfer", "jobId": 1}
                """);
        ViolationOracle twice = new ViolationOracle(ScenarioExecution.ledger(), EventLogRules::new, FindingCodes.parse("JOB_ALREADY_COMPLETE"));

        Shrinker.Result result = new Shrinker(twice).shrink(scenario);

        assertEquals(5, result.scenario().size(), result.scenario().text());
        List<ObjectNode> lines = result.scenario().lines();
        assertEquals(0, lines.get(3).get("jobId").intValue(), result.scenario().text());
        assertFalse(result.scenario().text().contains("_line"), "the shrinker's tags are removed");
    }

    @Test
    void aScenarioThatDoesNotShowItIsRefused() throws Exception {
        Scenario clean = Scenario.parse("{\"cmd\": \"RegisterRequest\", \"requestId\": \"a\", \"promptTokens\": [1]}\n");
        assertThrows(IllegalArgumentException.class, () -> new Shrinker(realEngine(ViolationOracle.EXCEPTION)).shrink(clean));
    }

    static ViolationOracle realEngine(FindingCode code) {
        return new ViolationOracle(ScenarioExecution.ledger(), EventLogRules::new, code);
    }

    /** The commands a simulation sends, as a scenario. */
    static Scenario simulatedScenario(int requests, long seed) throws Exception {
        return simulatedScenario(SimulationOptions.DEFAULTS.withRequests(requests).withSeed(seed));
    }

    /** The commands a simulation with {@code options} sends, as a scenario. */
    static Scenario simulatedScenario(SimulationOptions options) throws Exception {
        StringWriter text = new StringWriter();
        new Simulator(options).run(new Simulator.Listener() {
            private ScenarioWriter writer;

            @Override
            public void configured(EngineConfigured configured) {
                writer = new ScenarioWriter(text, configured.config());
            }

            @Override
            public void step(List<StepEntry> entries, List<EngineEvent> events) {
                entries.forEach(entry -> writer.write(entry.command()));
            }
        });
        return Scenario.parse(text.toString());
    }
}
