package io.kvledger.infrastructure.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.log.Envelope;
import io.kvledger.infrastructure.log.LogEntry;
import java.nio.charset.StandardCharsets;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.GenericTrackedDomainEventMessage;
import org.axonframework.eventhandling.GlobalSequenceTrackingToken;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.messaging.MetaData;

/**
 * The store's line: the contract's log line (seq, type, the event's fields at the top level) plus an
 * {@code envelope} with what Axon needs to rebuild the message. An append of several events marks
 * every line but its last with {@code batchRemaining}, the lines of the same append still to come, so
 * that opening the file can tell an append cut short at a line boundary from a whole one.
 *
 * <p>Not kept: Axon's metadata (correlation data of the process that wrote the event) and the
 * aggregate type; events read back have empty metadata and a {@code null} type.
 */
final class StoreLines {

    static final String BATCH_REMAINING = "batchRemaining";

    private StoreLines() {
    }

    /** The line's bytes, newline included. */
    static byte[] encode(long seq, DomainEventMessage<?> message, int batchRemaining) {
        EngineEvent event = (EngineEvent) message.getPayload();
        ObjectNode line = EventJson.toNode(seq, event);
        ObjectNode envelope = line.putObject("envelope");
        envelope.put("aggregateId", message.getAggregateIdentifier());
        envelope.put("sequenceNumber", message.getSequenceNumber());
        envelope.put("eventId", message.getIdentifier());
        envelope.put("timestamp", message.getTimestamp().toString());
        envelope.put("revision", Envelope.CURRENT_REVISION);
        if (batchRemaining > 0) {
            envelope.put(BATCH_REMAINING, batchRemaining);
        }
        return (EventJson.toLine(line) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /** How many lines of the same append follow this one: 0 for the last (and for a line without the mark). */
    static long batchRemaining(LogEntry entry) {
        JsonNode value = entry.raw().path("envelope").path(BATCH_REMAINING);
        return value.isIntegralNumber() ? value.longValue() : 0;
    }

    static DomainEventMessage<?> domainMessage(LogEntry entry) {
        Envelope envelope = entry.envelope();
        return new GenericDomainEventMessage<>(null, envelope.aggregateId(), envelope.sequenceNumber(), payload(entry),
                MetaData.emptyInstance(), envelope.eventId(), envelope.timestamp());
    }

    /** The tracking token of a line is its seq: reading after token {@code t} yields lines {@code t+1} on. */
    static TrackedEventMessage<?> trackedMessage(LogEntry entry) {
        return new GenericTrackedDomainEventMessage<>(new GlobalSequenceTrackingToken(entry.seq()), domainMessage(entry));
    }

    /**
     * The event, or for a type this version does not know its fields as a JSON object: no handler of
     * the engine matches it, so it is kept and carried, not folded.
     */
    private static Object payload(LogEntry entry) {
        if (entry.event() != null) {
            return entry.event();
        }
        ObjectNode fields = entry.raw().deepCopy();
        fields.remove("seq");
        fields.remove("type");
        fields.remove("envelope");
        return fields;
    }
}
