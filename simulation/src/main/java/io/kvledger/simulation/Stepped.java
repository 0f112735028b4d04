package io.kvledger.simulation;

import io.kvledger.application.finding.Finding;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * What the stepping side of a simulation ({@link StepLoop}) hands to the checking side
 * ({@link StepChecker}), in order: the configuration, each step with what the host found, then the
 * end or what stopped the run. Everything in it is a value read on the stepping thread, so it may cross
 * threads, but for the engine's state a step lends now and then ({@link Live}): the engine's state is its
 * own, and only its newest version is readable, so the checking side keeps its own fold of the same events
 * and is lent the engine's only while the stepping side waits.
 */
sealed interface Stepped {

    /** The engine's first event. */
    record Configured(EngineConfigured configured) implements Stepped {
    }

    /**
     * One scheduler step: its commands, the engine's events and state after it, the host's findings (which
     * carry the seq of the step's last event), and a finding that the run is stuck (stalled or making no
     * progress), judged after the step's own.
     */
    record Step(long now, List<StepEntry> entries, List<EngineEvent> events, Live live, List<Finding> hostFindings,
                Finding stuck) implements Stepped {
    }

    /**
     * The engine's state after a step, as the checking side compares its own fold with it: its sizes, read
     * on the stepping thread, and on a step that compares whole, the state itself, lent: the stepping side
     * does not step again until the checking side has {@link #giveBack given it back}.
     *
     * @param lent the engine's state, on a step that compares whole; else {@code null}
     */
    record Live(long nextJobId, int tierSize, int requests, int jobs, int retired, EngineState lent,
                CountDownLatch givenBack) {

        /** The sizes of {@code state}, lending it when {@code whole}. */
        static Live of(EngineState state, boolean whole) {
            return new Live(state.nextJobId(), state.tier().size(), state.requests().size(), state.jobs().size(),
                    state.retired().size(), whole ? state : null, whole ? new CountDownLatch(1) : null);
        }

        /** Called by the checking side once it no longer reads {@link #lent}. */
        void giveBack() {
            if (givenBack != null) {
                givenBack.countDown();
            }
        }

        /**
         * Waits, on the stepping side, until the lent state is given back; returns {@code false} when
         * {@code stopped} says the checking side has stopped (it will never give it back).
         */
        boolean awaitGivenBack(BooleanSupplier stopped) throws InterruptedException {
            if (givenBack == null) {
                return true;
            }
            while (!givenBack.await(20, TimeUnit.MILLISECONDS)) {
                if (stopped.getAsBoolean()) {
                    return false;
                }
            }
            return true;
        }
    }

    /**
     * The stepping side threw at step {@code now}, after the host had seen the first {@code seen} events of
     * the step ({@code finished}: all of them and the step's end). The checks see just as many before
     * the error is thrown, so the same check fails first as when one thread does both.
     */
    record Thrown(long now, List<EngineEvent> seen, boolean finished, Throwable error) implements Stepped {
    }

    /** Every request settled and every job ended: the engine's state at the end, and the counts. */
    record End(EngineState state, SimulationSummary summary) implements Stepped {
    }
}
