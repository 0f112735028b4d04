package io.kvledger.infrastructure.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.NameTransformer;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.json.EventTypes;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Writes events as log lines, numbered with {@code seq} from 1, straight to bytes through one reused
 * Jackson generator: no string, tree or generator per line, no character encoding pass. The bytes are
 * those of {@code EventLogWriter} (the event's fields by Jackson's own serializer of its record,
 * unwrapped into the line, in the contract's spacing). A simulation writes a million lines in seconds,
 * so the cost per line is most of what writing its log costs. Not thread-safe.
 */
final class LogLineEncoder {

    private final JsonGenerator generator;
    private final SerializerProvider serializers = EventJson.mapper().getSerializerProviderInstance();
    private final Map<Class<?>, JsonSerializer<Object>> fieldWriters = new HashMap<>();
    private long seq;

    /** @param out receives the bytes in the generator's blocks of a few kilobytes, and at {@link #flush} */
    LogLineEncoder(OutputStream out) {
        try {
            generator = EventJson.lineGenerator(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void write(EngineEvent event) {
        try {
            generator.writeStartObject();
            generator.writeNumberField("seq", ++seq);
            generator.writeStringField("type", EventTypes.nameOf(event));
            if (event instanceof CommandRejected) {
                writeRejection(seq, event);
            } else {
                fieldWriter(event.getClass()).serialize(event, generator, serializers);
            }
            generator.writeEndObject();
            generator.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the event log", e);
        }
    }

    void writeAll(Iterable<? extends EngineEvent> events) {
        for (EngineEvent event : events) {
            write(event);
        }
    }

    /** The seq of the last event written (0 before the first). */
    long lastSeq() {
        return seq;
    }

    void flush() {
        try {
            generator.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the event log", e);
        }
    }

    /** A rejection leaves out the request or job id its command did not give, rather than writing null. */
    private void writeRejection(long seq, EngineEvent event) throws IOException {
        ObjectNode node = EventJson.toNode(seq, event);
        for (Iterator<Map.Entry<String, JsonNode>> fields = node.fields(); fields.hasNext(); ) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (!field.getKey().equals("seq") && !field.getKey().equals("type")) {
                generator.writeFieldName(field.getKey());
                generator.writeTree(field.getValue());
            }
        }
    }

    private JsonSerializer<Object> fieldWriter(Class<?> type) throws IOException {
        JsonSerializer<Object> writer = fieldWriters.get(type);
        if (writer == null) {
            writer = serializers.findValueSerializer(type).unwrappingSerializer(NameTransformer.NOP);
            fieldWriters.put(type, writer);
        }
        return writer;
    }
}
