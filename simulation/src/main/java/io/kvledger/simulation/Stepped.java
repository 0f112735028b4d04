package io.kvledger.simulation;

import io.kvledger.application.finding.Finding;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import java.util.List;

/**
 * What the stepping side of a simulation ({@link StepLoop}) hands to the checking side
 * ({@link StepChecker}), in order: the configuration, each step with what the host found, then the
 * end or what stopped the run. Everything in it is immutable, so it may cross threads.
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
    record Step(long now, List<StepEntry> entries, List<EngineEvent> events, EngineState state, List<Finding> hostFindings,
                Finding stuck) implements Stepped {
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
