package io.kvledger.infrastructure.serve;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.util.NameTransformer;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.json.EventTypes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Writes an event as an object of the log format (contract section 3), {@code seq} and {@code type}
 * first, straight from the record into a streaming generator: the record's own serializer, looked up
 * once per type and unwrapped so its fields land in the same object. The same fields as
 * {@link EventJson#toNode}, without building a tree or a string per event. Not thread-safe.
 */
final class EventEncoder {

    private final SerializerProvider provider;
    private final Map<Class<?>, JsonSerializer<Object>> serializers = new HashMap<>();

    EventEncoder() {
        ObjectMapper mapper = EventJson.mapper();
        this.provider = mapper.getSerializerProviderInstance();
    }

    void write(JsonGenerator out, long seq, EngineEvent event) throws IOException {
        out.writeStartObject();
        out.writeNumberField("seq", seq);
        out.writeStringField("type", EventTypes.nameOf(event));
        if (event instanceof CommandRejected rejected) {
            writeRejection(out, rejected);
        } else {
            serializer(event.getClass()).serialize(event, out, provider);
        }
        out.writeEndObject();
    }

    /** A rejection repeats the request or job id only when the command gave one (as {@code run} writes it). */
    private static void writeRejection(JsonGenerator out, CommandRejected rejected) throws IOException {
        out.writeNumberField("line", rejected.line());
        out.writeStringField("cmd", rejected.cmd());
        out.writeStringField("code", rejected.code().name());
        out.writeStringField("message", rejected.message());
        writeId(out, "requestId", rejected.requestId());
        writeId(out, "jobId", rejected.jobId());
    }

    private static void writeId(JsonGenerator out, String field, Object id) throws IOException {
        if (id instanceof Long number) {
            out.writeNumberField(field, number);
        } else if (id != null) {
            out.writeStringField(field, id.toString());
        }
    }

    private JsonSerializer<Object> serializer(Class<?> type) {
        JsonSerializer<Object> serializer = serializers.get(type);
        if (serializer == null) {
            try {
                serializer = provider.findValueSerializer(type).unwrappingSerializer(NameTransformer.NOP);
            } catch (JsonMappingException e) {
                throw new UncheckedIOException("cannot write events of " + type.getName(), e);
            }
            serializers.put(type, serializer);
        }
        return serializer;
    }
}
