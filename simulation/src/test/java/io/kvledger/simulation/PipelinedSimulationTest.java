package io.kvledger.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.application.check.CheckCode;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.infrastructure.json.EventJson;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Stepping on a thread of its own changes nothing a caller sees: the listener gets the same steps on the
 * caller's thread, the summary counts the same, and a run that breaks a check, gets stuck or throws fails
 * at the same step with the same message, having shown the listener the same steps, as on one thread.
 */
class PipelinedSimulationTest {

    private static final SimulationOptions SMALL = SimulationOptions.DEFAULTS.withRequestTokens(48);

    @Test
    void manySeedsAndOptionsGiveTheSameStepsAndCountsOnOneThreadAndTwo() {
        List<SimulationOptions> runs = new ArrayList<>();
        for (long seed = 1; seed <= 12; seed++) {
            runs.add(SMALL.withSeed(seed).withRequests(300 + 100 * (int) (seed % 4)));
        }
        runs.add(new SimulationOptions(300, 3, 0.2, 0.02, 0.05, 3, ReleasePolicy.DELAY_FREE, 0.0005));
        runs.add(new SimulationOptions(300, 4, 0.1, 0.3, 0.02, 1, ReleasePolicy.FENCE, 0.01));
        for (SimulationOptions options : runs) {
            Recorded one = record(options, Simulator::ledger, false);
            Recorded two = record(options, Simulator::ledger, true);
            assertEquals(null, one.failure, "seed " + options.seed());
            assertEquals(one.lines, two.lines, "seed " + options.seed());
            assertEquals(untimed(one.summary), untimed(two.summary), "seed " + options.seed());
            assertTrue(one.lines.size() > 1000, "a run long enough to fill the queue between the threads");
        }
    }

    @Test
    void aBrokenRuleFailsAtTheSameStepWithTheSameFindings() {
        for (ReleasePolicy policy : ReleasePolicy.values()) {
            SimulationOptions options = SimulationOptions.DEFAULTS.withRequests(400).withSeed(5).withReleasePolicy(policy);
            assertSameFailure(options, config -> rewritten(config, result -> new StepResult(
                    result.events().stream().filter(event -> !(event instanceof FlushRequired)).toList(), result.state())));
        }
    }

    @Test
    void aLogThatFoldsToAnotherStateFailsTheSame() {
        // the events lose a store job, the state keeps it: the log's rules or its fold disagree with the engine
        assertSameFailure(SMALL.withRequests(300).withSeed(2), config -> rewritten(config, result -> new StepResult(
                result.events().stream().filter(event -> !(event instanceof StoreJobScheduled)).toList(), result.state())));
    }

    @Test
    void aStateThatDiffersOnlyInContentFailsAtTheWholeComparisonTheSame() {
        // The checking side keeps its own fold and is lent the engine's state to compare whole every
        // FULL_REPLAY_EVERY steps: a state whose sizes agree but one request's computed tokens do not is caught there.
        int whole = StepChecker.FULL_REPLAY_EVERY;
        int[] steps = {0};
        Function<EngineConfig, KvLedger> lying = config -> {
            steps[0] = 0;
            return rewritten(config, result -> {
                EngineState state = result.state();
                if (++steps[0] % whole != 0 || state.requests().isEmpty()) {
                    return result;
                }
                RequestState request = state.requests().values().get(0);
                // A copy lies: the engine's own state, changed in place, stays as its events made it.
                return new StepResult(result.events(), state.copy().withRequest(request.withComputed(request.computed() + 1)));
            });
        };
        Recorded failed = assertSameFailure(SMALL.withRequests(2000).withSeed(4), lying);
        assertEquals(0, failed.failure.step() % whole, "failed at a whole comparison: " + failed.failure.getMessage());
        assertTrue(failed.failure.findings().stream().anyMatch(f -> f.code() == CheckCode.REPLAY_MISMATCH),
                failed.failure.getMessage());
    }

    @Test
    void aStuckRunFailsTheSame() {
        assertSameFailure(SMALL.withRequests(200).withSeed(3), config -> new RewrittenLedger(Simulator.ledger(config),
                entries -> entries.stream().filter(entry -> !(entry.command() instanceof FinishRequest
                        || entry.command() instanceof AbortRequest)).toList(), result -> result));
    }

    @Test
    void anEngineThatThrowsFailsTheSameWithTheException() {
        int[] steps = {0};
        Function<EngineConfig, KvLedger> throwing = config -> {
            steps[0] = 0;
            return new RewrittenLedger(Simulator.ledger(config), entries -> {
                if (++steps[0] == 700) {
                    throw new IllegalStateException("engine broke at its 700th step");
                }
                return entries;
            }, result -> result);
        };
        Recorded failed = assertSameFailure(SMALL.withRequests(500).withSeed(9), throwing);
        assertTrue(failed.failure.getMessage().startsWith("seed 9 step 700: EXCEPTION java.lang.IllegalStateException"),
                failed.failure.getMessage());
    }

    @Test
    void theSteppingThreadsCpuIsMeasuredOnlyWhenAsked() {
        SimulationOptions options = SimulationOptions.DEFAULTS.withRequests(100).withSeed(4);
        SimulationSummary plain = new Simulator(options).pipelined(true).run(new Discard());
        assertEquals(0.0, plain.steppingCpuSeconds());
        assertEquals(0.0, plain.engineCpuSeconds());
        SimulationSummary timed = new Simulator(options).pipelined(true).timed(true).run(new Discard());
        assertTrue(timed.engineCpuSeconds() > 0, "the engine's steps take CPU");
        assertTrue(timed.steppingCpuSeconds() >= timed.engineCpuSeconds(), "the stepping thread runs the engine's steps and the host");
        assertEquals(plain.events(), timed.events());
    }

    @Test
    void aListenerThatThrowsStopsTheSteppingThread() {
        RuntimeException broken = new RuntimeException("disk full");
        Simulator.Listener failing = new Simulator.Listener() {
            private int steps;

            @Override
            public void configured(EngineConfigured configured) {
            }

            @Override
            public void step(List<StepEntry> entries, List<EngineEvent> events) {
                if (++steps == 50) {
                    throw broken;
                }
            }
        };
        RuntimeException thrown = assertThrows(RuntimeException.class,
                () -> new Simulator(SMALL.withRequests(2000)).pipelined(true).run(failing));
        assertEquals(broken, thrown);
        assertFalse(Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals("simulate-steps")),
                "the stepping thread ended with the run");
    }

    private static Recorded assertSameFailure(SimulationOptions options, Function<EngineConfig, KvLedger> engines) {
        Recorded one = record(options, engines, false);
        Recorded two = record(options, engines, true);
        assertNotNull(one.failure, "the broken engine fails the run");
        assertNotNull(two.failure, "the broken engine fails the pipelined run");
        assertEquals(one.failure.getMessage(), two.failure.getMessage());
        assertEquals(one.failure.step(), two.failure.step());
        assertEquals(one.failure.findings(), two.failure.findings());
        assertEquals(one.lines, two.lines, "the listener saw the same steps");
        return one;
    }

    private static KvLedger rewritten(EngineConfig config, java.util.function.UnaryOperator<StepResult> result) {
        return new RewrittenLedger(Simulator.ledger(config), entries -> entries, result);
    }

    private record Recorded(List<String> lines, String summary, SimulationFailure failure) {
    }

    private static Recorded record(SimulationOptions options, Function<EngineConfig, KvLedger> engines, boolean twoThreads) {
        List<String> lines = new ArrayList<>();
        Thread caller = Thread.currentThread();
        Simulator.Listener listener = new Simulator.Listener() {
            @Override
            public void configured(EngineConfigured configured) {
                assertEquals(caller, Thread.currentThread());
                lines.add(EventJson.toLine(lines.size() + 1, configured));
            }

            @Override
            public void step(List<StepEntry> entries, List<EngineEvent> events) {
                assertEquals(caller, Thread.currentThread(), "the listener is called on the caller's thread");
                lines.add("step " + entries.size() + " commands from line " + (entries.isEmpty() ? "-" : entries.get(0).line()));
                for (EngineEvent event : events) {
                    lines.add(EventJson.toLine(lines.size() + 1, event));
                }
            }
        };
        Simulator simulator = new Simulator(options, () -> (seq, event) -> List.of(), engines).pipelined(twoThreads);
        try {
            return new Recorded(lines, simulator.run(listener).text(options.seed()), null);
        } catch (SimulationFailure failure) {
            return new Recorded(lines, null, failure);
        }
    }

    /** The summary without its last line, the wall time and rate. */
    private static String untimed(String summary) {
        return summary.substring(0, summary.stripTrailing().lastIndexOf('\n'));
    }
}
