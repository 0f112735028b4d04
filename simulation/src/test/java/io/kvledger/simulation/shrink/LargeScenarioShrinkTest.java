package io.kvledger.simulation.shrink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.application.check.EventLogRules;
import io.kvledger.application.check.FindingCodes;
import io.kvledger.simulation.SimulationOptions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code shrink --until JOB_ALREADY_COMPLETE} of long simulated scenarios (thousands of lines, hundreds of jobs;
 * the simulated host completes some jobs late, twice): the result is 1-minimal, also for a reader who removes one
 * line and lets the completions follow their jobs, and where a request's first store is completed twice, it is
 * the five lines that show it. Anchors worked out on the original scenario alone stopped at 13 lines.
 */
class LargeScenarioShrinkTest {

    private static final ViolationOracle TWICE = new ViolationOracle(ScenarioExecution.ledger(), EventLogRules::new,
            FindingCodes.parse("JOB_ALREADY_COMPLETE"));

    @Test
    void aLongScenarioShrinksToTheFiveLinesThatCompleteAJobTwice() throws Exception {
        Shrinker.Result result = shrink(SimulationOptions.DEFAULTS.withRequests(100).withSeed(3));

        assertEquals(List.of("RegisterRequest", "AllocateBlocks", "ComputeTokens", "CompleteTransfer", "CompleteTransfer"),
                commands(result.scenario()), shown(result));
        assertEquals(0, result.scenario().lines().get(4).get("jobId").intValue(), shown(result));
    }

    @Test
    void everyResultIsOneMinimal() throws Exception {
        for (long seed : new long[] {3, 8}) {
            Shrinker.Result result = shrink(SimulationOptions.DEFAULTS.withRequests(seed == 3 ? 100 : 60).withSeed(seed));
            Scenario anchored = JobAnchors.anchor(result.scenario());
            for (int i = 0; i < anchored.size(); i++) {
                List<ObjectNode> lines = new ArrayList<>(anchored.lines());
                lines.remove(i);
                assertFalse(TWICE.shows(JobAnchors.strip(JobAnchors.renumber(anchored.withLines(lines)))),
                        "seed " + seed + ": still shows without line " + (i + 1) + " of " + shown(result));
            }
        }
    }

    /** Each run's result, once (a long shrink takes seconds). */
    private static final java.util.Map<String, Shrinker.Result> SHRUNK = new java.util.concurrent.ConcurrentHashMap<>();

    private static Shrinker.Result shrink(SimulationOptions options) throws Exception {
        Shrinker.Result known = SHRUNK.get(options.toString());
        if (known != null) {
            return known;
        }
        Scenario simulated = ShrinkerTest.simulatedScenario(options);
        assertTrue(simulated.size() > 2000, "a long scenario: " + simulated.size() + " lines");
        assertTrue(TWICE.shows(simulated), "the simulated host completes a job twice");
        Shrinker.Result result = new Shrinker(TWICE).shrink(simulated);
        assertTrue(TWICE.shows(result.scenario()), shown(result));
        SHRUNK.put(options.toString(), result);
        return result;
    }

    private static List<String> commands(Scenario scenario) {
        return scenario.lines().stream().map(line -> line.get("cmd").textValue()).toList();
    }

    private static String shown(Shrinker.Result result) {
        return result.originalLines() + " lines shrunk in " + result.oracleRuns() + " runs to:\n" + result.scenario().text();
    }
}
