package io.kvledger.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.FinishRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The simulated host always makes progress: every seed ends with every request settled, the events per
 * request stay under one bound whatever the seed and the number of requests, and a run whose requests
 * stop ending fails with the seed and step instead of running forever.
 */
class SimulationProgressTest {

    /** Events per request, on average over a run; the default workload makes about 50. */
    private static final double EVENTS_PER_REQUEST = 80;

    /** Small requests (the pool scales with them), so many seeds of thousands of requests run in seconds. */
    private static final SimulationOptions SMALL = SimulationOptions.DEFAULTS.withRequestTokens(48);

    @Test
    void fiftySeedsOfThousandsOfRequestsEachEndWithBoundedEvents() {
        for (long seed = 1; seed <= 50; seed++) {
            int requests = seed % 2 == 0 ? 1000 : 3000;
            assertBoundedRun(SMALL.withSeed(seed).withRequests(requests));
        }
    }

    @Test
    void theSeedThatLivelockedUnderPressureEndsWithFewPreemptions() {
        // Seed 7 preempted and readmitted the same requests step after step from about request 2400 on
        // (6038 preemptions by request 2603, and never ending at 20000): the requests preempted to make room
        // were looked up again in the same step, taking GPU hits on the very blocks their preemption freed.
        SimulationSummary summary = assertBoundedRun(SimulationOptions.DEFAULTS.withSeed(7).withRequests(3000));
        assertTrue(summary.preemptions() < 3000 / 2, summary.text(7));
    }

    @Test
    void preemptionAtEveryStepStillLetsEveryRequestEnd() {
        // --requests 1 --preempt-rate 1 allocated and preempted the one request forever.
        SimulationSummary one = assertBoundedRun(SimulationOptions.DEFAULTS.withRequests(1).withPreemptRate(1));
        assertEquals(Scheduler.UNFORCED_PREEMPTIONS, one.preemptions());
        assertBoundedRun(SMALL.withRequests(500).withPreemptRate(1));
    }

    @Test
    void aRequestThatCanNeverFitTheGpuPoolIsRefused() {
        // 12 blocks of 4 to 16 tokens hold 48 to 192 tokens: the longer requests of the default workload never fit.
        SimulationSummary summary = new Simulator(SimulationOptions.DEFAULTS.withRequests(300).withGpuBlocks(12))
                .run(new Discard());
        assertEquals(300, summary.requests());
        assertTrue(summary.refused() > 0, "some requests are too long for 12 blocks");
        assertTrue(summary.refused() < 300, "short ones still fit");
        assertEquals(300, summary.finished() + summary.aborted());
    }

    @Test
    void aRunWhoseRequestsStopEndingFailsNamingTheSeedAndStep() {
        // An engine that never hears of finishes and aborts keeps every request live: no request ever ends.
        SimulationOptions options = SMALL.withRequests(200).withSeed(3);
        SimulationFailure failure = assertThrows(SimulationFailure.class, () -> new Simulator(options,
                () -> (seq, event) -> List.of(), config -> noEnds(Simulator.ledger(config))).run(new Discard()));
        assertTrue(failure.getMessage().matches("seed 3 step \\d+: seq \\d+ NO_PROGRESS request -: no request finished "
                + "or was aborted in 5000 steps while \\d+ are live"), failure.getMessage());
        assertTrue(failure.step() > Simulator.PROGRESS_STEPS, failure.getMessage());
    }

    private static SimulationSummary assertBoundedRun(SimulationOptions options) {
        SimulationSummary summary = new Simulator(options).run(new Discard());
        String run = "seed " + options.seed() + ", " + options.requests() + " requests: " + summary.text(options.seed());
        assertEquals(options.requests(), summary.requests(), run);
        assertEquals(options.requests(), summary.finished() + summary.aborted(), run);
        assertTrue(summary.events() <= EVENTS_PER_REQUEST * Math.max(1, options.requests()) + 100, run);
        return summary;
    }

    /** The real engine, never given a FinishRequest or AbortRequest. */
    private static KvLedger noEnds(KvLedger real) {
        return new RewrittenLedger(real, entries -> entries.stream().filter(entry -> !(entry.command() instanceof FinishRequest
                || entry.command() instanceof AbortRequest)).toList(), result -> result);
    }
}
