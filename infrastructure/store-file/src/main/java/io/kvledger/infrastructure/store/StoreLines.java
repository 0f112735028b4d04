package io.kvledger.infrastructure.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.log.Envelope;
import io.kvledger.infrastructure.log.LogEntry;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.GenericTrackedDomainEventMessage;
import org.axonframework.eventhandling.GlobalSequenceTrackingToken;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.messaging.MetaData;

/**
 * The store's line: the contract's log line (seq, type, the event's fields at the top level) plus an
 * {@code envelope} with what Axon needs to rebuild the message. One Axon message of a step
 * ({@link StepEvents}) is one line per domain event, all with the message's sequence number; every
 * line after the first has {@code part}, its place in the message, so reading can regroup them. An
 * append of several lines marks every line but its last with {@code batchRemaining}, the lines of the
 * same append still to come, so that opening the file can tell an append cut short at a line boundary
 * from a whole one.
 *
 * <p>Not kept: Axon's metadata (correlation data of the process that wrote the event) and the
 * aggregate type; events read back have empty metadata and a {@code null} type.
 */
final class StoreLines {

    static final String BATCH_REMAINING = "batchRemaining";
    static final String PART = "part";

    private StoreLines() {
    }

    /** The domain events a message carries: a step's, or the one event of a single-event message. */
    static List<EngineEvent> eventsOf(DomainEventMessage<?> message) {
        Object payload = message.getPayload();
        if (payload instanceof StepEvents step) {
            return step.events();
        }
        if (payload instanceof EngineEvent event) {
            return List.of(event);
        }
        throw new IllegalArgumentException("only engine events can be stored, not " + message.getPayloadType().getName());
    }

    /**
     * What every line of one message shares in its envelope, formatted once: a step's message has
     * hundreds of lines.
     */
    record MessageEnvelope(String head, String openEventId, String tail) {

        static MessageEnvelope of(DomainEventMessage<?> message) {
            String head = "{\"aggregateId\": " + EventJson.quoted(message.getAggregateIdentifier())
                    + ", \"sequenceNumber\": " + message.getSequenceNumber() + ", \"eventId\": ";
            String tail = ", \"timestamp\": \"" + message.getTimestamp() + "\", \"revision\": \""
                    + Envelope.CURRENT_REVISION + "\"";
            String id = EventJson.quoted(message.getIdentifier());
            return new MessageEnvelope(head, id.substring(0, id.length() - 1), tail);
        }
    }

    /** The bytes of line {@code part} of a message, newline included. */
    static byte[] encode(long seq, MessageEnvelope message, EngineEvent event, int part, int batchRemaining) {
        StringBuilder line = new StringBuilder(256);
        EventJson.appendOpen(line, seq, event);
        line.append(", \"envelope\": ").append(message.head())
                .append(message.openEventId()).append(part == 0 ? "" : "#" + part).append('"')
                .append(message.tail());
        if (part > 0) {
            line.append(", \"").append(PART).append("\": ").append(part);
        }
        if (batchRemaining > 0) {
            line.append(", \"").append(BATCH_REMAINING).append("\": ").append(batchRemaining);
        }
        return line.append("}}\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The line's place in its message: 0 for the first line (and for a line without the mark). */
    static long part(LogEntry entry) {
        JsonNode value = entry.raw().path("envelope").path(PART);
        return value.isIntegralNumber() ? value.longValue() : 0;
    }

    /** How many lines of the same append follow this one: 0 for the last (and for a line without the mark). */
    static long batchRemaining(LogEntry entry) {
        JsonNode value = entry.raw().path("envelope").path(BATCH_REMAINING);
        return value.isIntegralNumber() ? value.longValue() : 0;
    }

    /**
     * The message of a group of lines (see {@link StoreMessages}): a {@link StepEvents} of the known
     * events, in order. A line of a type this version does not know has no handler in the engine, so it
     * is left out; a message of such lines only carries their fields as a JSON object.
     */
    static DomainEventMessage<?> domainMessage(List<LogEntry> lines) {
        Envelope envelope = lines.get(0).envelope();
        List<EngineEvent> known = lines.stream().map(LogEntry::event).filter(java.util.Objects::nonNull).toList();
        Object payload = known.isEmpty() ? unknownFields(lines.get(0)) : new StepEvents(known);
        return new GenericDomainEventMessage<>(null, envelope.aggregateId(), envelope.sequenceNumber(), payload,
                MetaData.emptyInstance(), envelope.eventId(), envelope.timestamp());
    }

    /** The tracking token of a message is the seq of its last line: reading after it yields the next message. */
    static TrackedEventMessage<?> trackedMessage(List<LogEntry> lines) {
        long last = lines.get(lines.size() - 1).seq();
        return new GenericTrackedDomainEventMessage<>(new GlobalSequenceTrackingToken(last), domainMessage(lines));
    }

    private static ObjectNode unknownFields(LogEntry entry) {
        ObjectNode fields = entry.raw().deepCopy();
        fields.remove("seq");
        fields.remove("type");
        fields.remove("envelope");
        return fields;
    }
}
