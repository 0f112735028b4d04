package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.domain.event.EngineEvent;

/**
 * One line of an event log.
 *
 * @param line     the physical line number, from 1
 * @param seq      the event's {@code seq}
 * @param type     its type name
 * @param event    the event, or {@code null} for a type this version does not know (kept, not folded)
 * @param envelope Axon's metadata when the line came from a store, else {@code null}
 * @param raw      the line as read (after upcasting)
 */
public record LogEntry(long line, long seq, String type, EngineEvent event, Envelope envelope, ObjectNode raw) {
}
