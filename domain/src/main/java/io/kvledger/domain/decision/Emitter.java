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
    /** The first event; most commands of a decode step make exactly one, kept without a list. */
    private EngineEvent first;
    /** Every event once there are two or more. */
    private List<EngineEvent> events;

    Emitter(EngineState state) {
        this.state = state;
    }

    void emit(EngineEvent event) {
        if (first == null) {
            first = java.util.Objects.requireNonNull(event, "event");
            return;
        }
        if (events == null) {
            events = new ArrayList<>(4);
            events.add(first);
        }
        events.add(event);
    }

    /** The state the command found (never one its own events made). */
    EngineState state() {
        return state;
    }

    Decision.Accepted accepted() {
        // An immutable list is taken by Accepted as it is (List.copyOf), so one event costs no copy.
        return new Decision.Accepted(events != null ? events : first != null ? List.of(first) : List.of());
    }
}
