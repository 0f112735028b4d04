package io.kvledger.domain;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;

/**
 * {@link EngineFold#evolve} that remembers its last few folds: folding an event equal to a remembered
 * one onto the very same state object gives the remembered result, without folding again. Exact,
 * because {@code evolve} is a pure function of the state and the event (events are records, equal
 * exactly when every field is).
 *
 * <p>Audit needs it: it folds the log's events and the decider folds the events it derives for the
 * same command from the same states, so every event of a log that agrees with the rules is folded
 * twice. With one {@code RecentFolds} shared by the two, the second fold of each is a look-up. Not
 * thread-safe: one per fold in progress.
 */
public final class RecentFolds {

    /** More than the events of one command's usual answer, few enough to scan. */
    private static final int REMEMBERED = 16;

    private final EngineState[] befores = new EngineState[REMEMBERED];
    private final EngineEvent[] events = new EngineEvent[REMEMBERED];
    private final EngineState[] afters = new EngineState[REMEMBERED];
    private int next;

    /** What {@code EngineFold.evolve(state, event)} gives. */
    public EngineState evolve(EngineState state, EngineEvent event) {
        if (state != null) {
            // Newest first: the fold asked for again is nearly always one of the last few.
            for (int back = 1; back <= REMEMBERED; back++) {
                int i = (next - back + REMEMBERED) % REMEMBERED;
                if (befores[i] == state && (events[i] == event || events[i].equals(event))) {
                    return afters[i];
                }
            }
        }
        EngineState after = EngineFold.evolve(state, event);
        if (state != null) {
            befores[next] = state;
            events[next] = event;
            afters[next] = after;
            next = (next + 1) % REMEMBERED;
        }
        return after;
    }
}
