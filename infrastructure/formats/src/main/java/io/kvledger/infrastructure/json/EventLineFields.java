package io.kvledger.infrastructure.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.NameTransformer;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Opens an event's line on a reused generator: {@code {"seq": N, "type": "T", <the event's fields>}.
 * The fields are written by Jackson's own serializer of the event's record, unwrapped into the line,
 * so they are exactly those of {@link EventJson#toNode}; the serializers are looked up once per type.
 * The one place the log's and the store's byte encoders take an event's fields from. Not thread-safe.
 */
public final class EventLineFields {

    private final SerializerProvider serializers = EventJson.mapper().getSerializerProviderInstance();
    private final Map<Class<?>, JsonSerializer<Object>> fieldWriters = new HashMap<>();

    /** Writes the object's start, {@code seq}, {@code type} and the event's fields; the caller ends the object. */
    public void open(JsonGenerator generator, long seq, EngineEvent event) throws IOException {
        generator.writeStartObject();
        generator.writeNumberField("seq", seq);
        generator.writeStringField("type", EventTypes.nameOf(event));
        if (event instanceof CommandRejected) {
            writeRejection(generator, seq, event);
        } else {
            fieldWriter(event.getClass()).serialize(event, generator, serializers);
        }
    }

    /** A rejection leaves out the request or job id its command did not give, rather than writing null. */
    private static void writeRejection(JsonGenerator generator, long seq, EngineEvent event) throws IOException {
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
