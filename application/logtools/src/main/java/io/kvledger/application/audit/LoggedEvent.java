package io.kvledger.application.audit;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;

/**
 * One event of a command as the log shows it.
 *
 * @param seq      its seq
 * @param event    the event as folded (the log's keys put in token-derived keys)
 * @param logEvent the event as the log wrote it
 * @param before   the state just before it (a reference, not a copy: the fold changes the state in place but keeps undo, so it still reads as it was)
 * @param flagged  whether an event-by-event rule already reported it
 */
public record LoggedEvent(long seq, EngineEvent event, EngineEvent logEvent, EngineState before, boolean flagged) {
}
