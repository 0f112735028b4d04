package io.kvledger.simulation;

import io.kvledger.application.check.CheckCode;
import io.kvledger.application.check.EventLogRules;
import io.kvledger.application.finding.Finding;
import io.kvledger.application.check.LogCheck;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.List;

/**
 * The checking side of a simulation: takes what {@link StepLoop} hands on, in order, checks every
 * event with the log rules ({@link EventLogRules}, the audit's among them, and any further check),
 * adds the host's findings, checks that the log folds to the engine's state, gives the step to the
 * listener and fails the run on the first step that broke anything. Findings come in the order one
 * thread doing both sides gives: the rules' per event, the audit's end of the step, the host's, the
 * fold's, then a stuck run's.
 */
final class StepChecker {

    private static final int FULL_REPLAY_EVERY = 512;

    private final long seed;
    private final Simulator.Listener listener;
    private final EventLogRules rules = new EventLogRules();
    private final LogCheck checks;
    /** Whether the log's fold (the rules' state) is compared with the engine's. */
    private final boolean folds;
    private long seq;

    StepChecker(long seed, Checks which, LogCheck further, Simulator.Listener listener) {
        this.seed = seed;
        this.listener = listener;
        this.folds = which == Checks.ALL;
        // The audit's rules judge every model, grouped ones included (contract 7.8).
        this.checks = folds ? rules.and(further) : further;
    }

    /** Checks one outcome; returns the summary at the end of the run, null before; throws the run's failure. */
    SimulationSummary accept(Stepped stepped) {
        if (stepped instanceof Stepped.Configured c) {
            listener.configured(c.configured());
            fail(0, checks.check(++seq, c.configured()));
        } else if (stepped instanceof Stepped.Step step) {
            List<Finding> findings = new ArrayList<>();
            for (EngineEvent event : step.events()) {
                findings.addAll(checks.check(++seq, event));
            }
            findings.addAll(checks.finish()); // a step ends its commands: judge the last one now
            findings.addAll(step.hostFindings());
            replayEqualsLive(step.state(), step.now(), findings);
            listener.step(step.entries(), step.events());
            fail(step.now(), findings);
            if (step.stuck() != null) {
                fail(step.now(), List.of(step.stuck()));
            }
        } else if (stepped instanceof Stepped.Thrown thrown) {
            for (EngineEvent event : thrown.seen()) {
                checks.check(++seq, event); // a check that throws on these events throws first, as it did
            }
            if (thrown.finished()) {
                checks.finish();
            }
            throw unchecked(thrown.error());
        } else if (stepped instanceof Stepped.End end) {
            replayEqualsLive(end.state(), 0, new ArrayList<>());
            return end.summary();
        }
        return null;
    }

    /** The log folded so far equals the engine's state: cheaply every step, whole every few hundred and at the end. */
    private void replayEqualsLive(EngineState live, long now, List<Finding> findings) {
        if (!folds) {
            return;
        }
        EngineState replayed = rules.state();
        boolean whole = now % FULL_REPLAY_EVERY == 0;
        boolean same = replayed.nextJobId() == live.nextJobId() && replayed.tier().size() == live.tier().size()
                && replayed.requests().size() == live.requests().size() && replayed.jobs().size() == live.jobs().size()
                && replayed.retired().size() == live.retired().size()
                && (!whole || (replayed.requests().equals(live.requests()) && replayed.tier().equals(live.tier())
                        && replayed.jobs().equals(live.jobs()) && replayed.fences().equals(live.fences())
                        && java.util.Objects.equals(replayed.windowHolds(), live.windowHolds())));
        if (now == 0) {
            same = replayed.equals(live);
        }
        if (!same) {
            findings.add(new Finding(seq, CheckCode.REPLAY_MISMATCH, null, "the log folds to another state than the engine's"));
            fail(now, findings);
        }
    }

    private void fail(long now, List<Finding> findings) {
        if (!findings.isEmpty()) {
            throw new SimulationFailure(seed, now, findings);
        }
    }

    static RuntimeException unchecked(Throwable error) {
        if (error instanceof RuntimeException e) {
            return e;
        }
        if (error instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(error);
    }
}
