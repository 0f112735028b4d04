package io.kvledger.application.replay;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import java.util.List;

/**
 * One event of a log folded: the (previous, current) pair, so a tool can show or check the change.
 *
 * @param seq       the event's {@code seq}
 * @param logEvent  the event as the log wrote it; {@code null} for a type this version does not know
 * @param event     the event as folded, its keys mapped onto token-derived keys; {@code null} when unknown
 * @param before    the state before it ({@code null} before the first event)
 * @param after     the state after it
 * @param conflicts keys of this event that contradict earlier ones
 */
public record FoldStep(long seq, EngineEvent logEvent, EngineEvent event, EngineState before, EngineState after,
                       List<KeyConflict> conflicts) {

    public FoldStep {
        conflicts = List.copyOf(conflicts);
    }
}
