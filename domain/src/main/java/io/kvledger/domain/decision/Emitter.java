package io.kvledger.domain.decision;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects the events of one command. It folds nothing: every rule reads the state the command found, and a
 * rule that follows an earlier event of the same command (a release after a store, say) is handed the request
 * value that event makes, so deciding changes no state and the fold stays the one writer.
 */
final class Emitter {

    private final EngineState state;
    private final List<EngineEvent> events = new ArrayList<>(4);

    Emitter(EngineState state) {
        this.state = state;
    }

    void emit(EngineEvent event) {
        events.add(event);
    }

    /** The state the command found (never one its own events made). */
    EngineState state() {
        return state;
    }

    Decision.Accepted accepted() {
        return new Decision.Accepted(events);
    }
}
