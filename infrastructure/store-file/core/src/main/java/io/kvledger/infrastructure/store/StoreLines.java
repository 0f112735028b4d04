package io.kvledger.infrastructure.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.log.Envelope;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.GenericTrackedDomainEventMessage;
import org.axonframework.eventhandling.GlobalSequenceTrackingToken;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.messaging.MetaData;

/**
 * The store's line: the contract's log line (seq, type, the event's fields at the top level). One Axon
 * message of a step ({@link StepEvents}) is one line per domain event; only its first line carries an
 * {@code envelope} with what Axon needs to rebuild the message (aggregate id, sequence number, event
 * id, timestamp, revision), so a step of 600 events pays for it once. The lines after it, up to the
 * next envelope, belong to the same message. An append's envelope lines also say how many lines of
 * the same append follow ({@code batchRemaining}, left out when none), so that opening the file can
 * tell an append cut short at a line boundary from a whole one.
 *
 * <p>Stores written before (format 1) have an envelope on every line, with {@code part}, the line's
 * place in its message, on every line after the first, and {@code batchRemaining} on every line but
 * an append's last; they are read as they are ({@link #startsMessage}), and new appends to them are
 * written in the current format.
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

    /** What every line of one message shares in its envelope, formatted once: a step's message has hundreds of lines. */
    record MessageEnvelope(String aggregateId, long sequenceNumber, String eventId, String timestamp) {

        static MessageEnvelope of(DomainEventMessage<?> message) {
            return new MessageEnvelope(message.getAggregateIdentifier(), message.getSequenceNumber(),
                    message.getIdentifier(), message.getTimestamp().toString());
        }
    }

    /**
     * Encodes line {@code part} of a message, newline included: the envelope on its first line only,
     * with the lines of the same append still to come after it (and, on the append's first line, the
     * store format, so that a step cannot lose its checksum unnoticed); the append's last line ends
     * with the append's checksum ({@link StepChecksums}).
     */
    static void encode(StoreLineEncoder encoder, long seq, MessageEnvelope message, EngineEvent event, int part,
            int batchRemaining, boolean startsAppend) {
        encoder.startLine(seq, event);
        JsonGenerator line = encoder.fields();
        try {
            if (part == 0) {
                line.writeObjectFieldStart("envelope");
                line.writeStringField("aggregateId", message.aggregateId());
                line.writeNumberField("sequenceNumber", message.sequenceNumber());
                line.writeStringField("eventId", message.eventId());
                line.writeStringField("timestamp", message.timestamp());
                line.writeStringField("revision", Envelope.CURRENT_REVISION);
                if (batchRemaining > 0) {
                    line.writeNumberField(BATCH_REMAINING, batchRemaining);
                }
                if (startsAppend) {
                    line.writeNumberField(StepChecksums.FORMAT_FIELD, StepChecksums.FORMAT);
                }
                line.writeEndObject();
            }
            if (batchRemaining == 0) {
                line.writeNumberField(StepChecksums.FIELD, encoder.checksum());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        encoder.endLine();
    }

    /** The store format an append's first line names ({@code envelope.storeFormat}); 2 when it names none. */
    static int storeFormat(LogEntry entry) {
        if (entry.envelope() == null) {
            return 2;
        }
        JsonNode value = entry.raw().path("envelope").path(StepChecksums.FORMAT_FIELD);
        return value.isIntegralNumber() ? value.intValue() : 2;
    }

    /**
     * Whether the line begins an Axon message: it has an envelope, and (format 1) no {@code part}.
     * Every other line continues the message of the last line that began one.
     */
    static boolean startsMessage(LogEntry entry) {
        return entry.envelope() != null && part(entry) == 0;
    }

    /** Format 1: the line's place in its message; 0 for the first line and for a line without the mark. */
    static long part(LogEntry entry) {
        if (entry.envelope() == null) {
            return 0; // no envelope, no mark: and the line's tree is not made for nothing
        }
        JsonNode value = entry.raw().path("envelope").path(PART);
        return value.isIntegralNumber() ? value.longValue() : 0;
    }

    /**
     * How many lines of the same append follow this one, as its envelope says: 0 for an append's last
     * line and for a line without the mark (in format 2, every line without an envelope).
     */
    static long batchRemaining(LogEntry entry) {
        if (entry.envelope() == null) {
            return 0; // most lines of format 2: their tree is not made for nothing
        }
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

    /** The seq a tracking token of this store stands after (0 for none). */
    static long seqOf(TrackingToken token) {
        if (token == null) {
            return 0;
        }
        if (token instanceof GlobalSequenceTrackingToken global) {
            return global.getGlobalIndex();
        }
        throw new IllegalArgumentException("the store's tokens are GlobalSequenceTrackingTokens, not " + token);
    }
}
