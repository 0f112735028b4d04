package io.kvledger.application.replay;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import java.util.List;

/**
 * One event of a log folded: the (previous, current) pair, so a tool can show or check the change. A tool
 * reads the state before an event from the step {@link LogFold#prepare} gives, before the event is folded,
 * and the state after it from the step {@link LogFold#complete} gives (the state is folded in place: the state
 * before reads as it was only until the event is folded).
 *
 * @param seq       the event's {@code seq}
 * @param logEvent  the event as the log wrote it; {@code null} for a type this version does not know
 * @param event     the event as folded, its keys mapped onto token-derived keys; {@code null} when unknown
 * @param before    the state before it ({@code null} before the first event), in a step {@link LogFold#prepare}
 *                  gave; {@code null} in a step {@link LogFold#complete} gave, as a state folded in place is
 *                  readable only while it is the newest
 * @param after     the state after it; {@code null} in a step prepared and not folded yet
 * @param conflicts keys of this event that contradict earlier ones
 */
public record FoldStep(long seq, EngineEvent logEvent, EngineEvent event, EngineState before, EngineState after,
                       List<KeyConflict> conflicts) {

    public FoldStep {
        conflicts = conflicts.isEmpty() ? List.of() : List.copyOf(conflicts); // nearly every step has none
    }

    /** This step folded: the state its fold gave, and no longer the state before it. */
    FoldStep folded(EngineState state) {
        return new FoldStep(seq, logEvent, event, null, state, conflicts);
    }
}
