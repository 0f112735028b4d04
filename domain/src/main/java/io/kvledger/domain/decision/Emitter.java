package io.kvledger.domain.decision;

import io.kvledger.domain.EngineFold;
import io.kvledger.domain.RecentFolds;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects the events of one command and folds each as it is emitted, so that a later rule of the
 * same command (a release after a store, say) reads the state the earlier events made.
 */
final class Emitter {

    private final RecentFolds folds;
    private EngineState state;
    private final List<EngineEvent> events = new ArrayList<>(4);

    /** @param folds the folds to share with the caller's own (see {@link RecentFolds}), or {@code null} */
    Emitter(EngineState state, RecentFolds folds) {
        this.state = state;
        this.folds = folds;
    }

    void emit(EngineEvent event) {
        state = folds == null ? EngineFold.evolve(state, event) : folds.evolve(state, event);
        events.add(event);
    }

    EngineState state() {
        return state;
    }

    RequestState request(String requestId) {
        return state.heldRequest(requestId);
    }

    Decision.Accepted accepted() {
        return new Decision.Accepted(events, state);
    }
}
