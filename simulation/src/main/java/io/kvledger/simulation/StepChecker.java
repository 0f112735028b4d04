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

    /** Every this many steps the log's fold is compared with the engine's whole state, lent for it. */
    static final int FULL_REPLAY_EVERY = 512;

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
            try {
                replayEqualsLive(step.live(), step.now(), findings);
            } finally {
                step.live().giveBack();
            }
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
            replayEqualsEnd(end.state());
            return end.summary();
        }
        return null;
    }

    /**
     * The log folded so far (this side's own fold) equals the engine's state: its sizes every step, the
     * whole state every few hundred steps (lent by the stepping side) and at the end.
     */
    private void replayEqualsLive(Stepped.Live live, long now, List<Finding> findings) {
        if (!folds) {
            return;
        }
        EngineState replayed = rules.state();
        EngineState whole = live.lent();
        boolean same = replayed.nextJobId() == live.nextJobId() && replayed.tier().size() == live.tierSize()
                && replayed.requests().size() == live.requests() && replayed.jobs().size() == live.jobs()
                && replayed.retired().size() == live.retired()
                && (whole == null || (replayed.requests().equals(whole.requests()) && replayed.tier().equals(whole.tier())
                        && replayed.jobs().equals(whole.jobs()) && replayed.fences().equals(whole.fences())
                        && java.util.Objects.equals(replayed.windowHolds(), whole.windowHolds())));
        mismatchFails(same, now, findings);
    }

    /** At the end the engine has stopped stepping: its state is compared whole. */
    private void replayEqualsEnd(EngineState live) {
        if (folds) {
            mismatchFails(rules.state().equals(live), 0, new ArrayList<>());
        }
    }

    private void mismatchFails(boolean same, long now, List<Finding> findings) {
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
