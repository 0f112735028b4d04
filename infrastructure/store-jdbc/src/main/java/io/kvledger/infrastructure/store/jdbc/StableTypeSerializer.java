package io.kvledger.infrastructure.store.jdbc;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.json.EventTypes;
import io.kvledger.infrastructure.log.Envelope;
import io.kvledger.infrastructure.log.EventSchema;
import io.kvledger.infrastructure.log.StreamedEventArray;
import io.kvledger.infrastructure.log.Upcasters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.axonframework.serialization.ChainingConverter;
import org.axonframework.serialization.Converter;
import org.axonframework.serialization.SerializationException;
import org.axonframework.serialization.SerializedObject;
import org.axonframework.serialization.SerializedType;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.SimpleSerializedObject;
import org.axonframework.serialization.SimpleSerializedType;
import org.axonframework.serialization.json.JacksonSerializer;

/**
 * Axon's serializer for the ledger's events, named by the log's stable type names ({@link EventTypes})
 * instead of class names, so that a class may move or be renamed without making stored events
 * unreadable, and read through the log's upcasters, so that an old revision is raised on load.
 *
 * <p>A step's {@link StepEvents} is stored as type {@code StepEvents} with a JSON array of events, each
 * an object with its {@code type} and the contract's fields (the log line without {@code seq}); one
 * {@link EngineEvent} as its own type name with its fields. A step of the current revision is read by
 * {@link StreamedEventArray} straight from its bytes; what it is not sure of, by the tree path. Everything
 * else Axon stores beside them (metadata, tracking tokens, token-store entries) goes to a {@link JacksonSerializer}.
 */
public final class StableTypeSerializer implements Serializer {

    /** The type name of a step's events. */
    public static final String STEP_EVENTS = "StepEvents";

    private static final ObjectMapper LENIENT = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .addModule(io.kvledger.infrastructure.json.GroupFieldsJson.module())
            .build();
    private static final ObjectWriter FIELDS = LENIENT.writer();

    private final JacksonSerializer others = JacksonSerializer.builder().build();
    private final Converter converter = new ChainingConverter();

    public static StableTypeSerializer create() {
        return new StableTypeSerializer();
    }

    @Override
    public <T> SerializedObject<T> serialize(Object object, Class<T> expectedRepresentation) {
        if (object instanceof StepEvents step) {
            return serialized(writeStep(step), STEP_EVENTS, expectedRepresentation);
        }
        if (object instanceof EngineEvent event) {
            return serialized(writeFields(event), EventTypes.nameOf(event), expectedRepresentation);
        }
        return others.serialize(object, expectedRepresentation);
    }

    private <T> SerializedObject<T> serialized(String json, String type, Class<T> representation) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        T data = representation == byte[].class ? representation.cast(bytes) : converter.convert(bytes, representation);
        return new SimpleSerializedObject<>(data, representation, type, Envelope.CURRENT_REVISION);
    }

    private static String writeStep(StepEvents step) {
        StringBuilder json = new StringBuilder(64 + step.events().size() * 96);
        json.append('[');
        for (EngineEvent event : step.events()) {
            if (json.length() > 1) {
                json.append(',');
            }
            String fields = writeFields(event);
            json.append("{\"type\":\"").append(EventTypes.nameOf(event)).append('"');
            if (fields.length() > 2) {
                json.append(',').append(fields, 1, fields.length());
            } else {
                json.append('}');
            }
        }
        return json.append(']').toString();
    }

    private static String writeFields(EngineEvent event) {
        if (event instanceof CommandRejected) {
            // As in the log: a rejection repeats the request or job id only when the command gave one.
            ObjectNode node = EventJson.toNode(0, event);
            node.remove("seq");
            node.remove("type");
            return node.toString();
        }
        try {
            return FIELDS.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new SerializationException("cannot write " + event, e);
        }
    }

    @Override
    public <T> boolean canSerializeTo(Class<T> expectedRepresentation) {
        return converter.canConvert(byte[].class, expectedRepresentation);
    }

    @Override
    @SuppressWarnings("unchecked")
    public <S, T> T deserialize(SerializedObject<S> serializedObject) {
        String type = serializedObject.getType().getName();
        String revision = Optional.ofNullable(serializedObject.getType().getRevision()).orElse(Envelope.CURRENT_REVISION);
        if (STEP_EVENTS.equals(type)) {
            if (Envelope.CURRENT_REVISION.equals(revision)) {
                // The fast path: the events straight from the bytes; the tree path for anything it is not sure of.
                List<EngineEvent> events = StreamedEventArray.read(bytes(serializedObject));
                if (events != null) {
                    return (T) new StepEvents(events);
                }
            }
            return (T) readStep(tree(serializedObject), revision);
        }
        if (EventTypes.classOf(type).isPresent()) {
            JsonNode node = tree(serializedObject);
            if (!node.isObject()) {
                throw new SerializationException(type + " must be a JSON object, was " + node);
            }
            return (T) readEvent(type, revision, (ObjectNode) node);
        }
        return others.deserialize(serializedObject);
    }

    private StepEvents readStep(JsonNode node, String revision) {
        if (!node.isArray()) {
            throw new SerializationException("StepEvents must be a JSON array of events, was " + abbreviated(node));
        }
        List<EngineEvent> events = new ArrayList<>(node.size());
        for (JsonNode element : (ArrayNode) node) {
            JsonNode typeNode = element.get("type");
            if (!element.isObject() || typeNode == null || !typeNode.isTextual()) {
                throw new SerializationException("each event of a StepEvents needs a string type, was " + abbreviated(element));
            }
            EngineEvent event = readEvent(typeNode.textValue(), revision, (ObjectNode) element);
            if (event != null) {
                events.add(event);
            }
        }
        return new StepEvents(events);
    }

    /** The event, or {@code null} for a type this version does not know (skipped, as the log reader does). */
    private static EngineEvent readEvent(String type, String revision, ObjectNode node) {
        Optional<Class<? extends EngineEvent>> eventClass = EventTypes.classOf(type);
        if (eventClass.isEmpty()) {
            return null;
        }
        ObjectNode current = Upcasters.toCurrent(type, revision, node);
        current.remove("type");
        Optional<String> problem = EventSchema.problem(type, current);
        if (problem.isPresent()) {
            throw new SerializationException("stored event: " + problem.get());
        }
        try {
            return LENIENT.treeToValue(current, eventClass.get());
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new SerializationException("stored " + type + " cannot be read: " + e.getMessage(), e);
        }
    }

    private byte[] bytes(SerializedObject<?> serialized) {
        return converter.convert(serialized.getData(), serialized.getContentType(), byte[].class);
    }

    private JsonNode tree(SerializedObject<?> serialized) {
        byte[] bytes = bytes(serialized);
        try {
            return LENIENT.readTree(bytes);
        } catch (IOException e) {
            throw new SerializationException("stored " + serialized.getType().getName() + " is not valid JSON", e);
        }
    }

    private static String abbreviated(JsonNode node) {
        String text = node.toString();
        return text.length() > 80 ? text.substring(0, 80) + "..." : text;
    }

    @Override
    @SuppressWarnings("rawtypes")
    public Class classForType(SerializedType type) {
        if (STEP_EVENTS.equals(type.getName())) {
            return StepEvents.class;
        }
        Optional<Class<? extends EngineEvent>> eventClass = EventTypes.classOf(type.getName());
        return eventClass.isPresent() ? eventClass.get() : others.classForType(type);
    }

    @Override
    @SuppressWarnings("rawtypes")
    public SerializedType typeForClass(Class type) {
        if (type == StepEvents.class) {
            return new SimpleSerializedType(STEP_EVENTS, Envelope.CURRENT_REVISION);
        }
        if (type != null && EngineEvent.class.isAssignableFrom(type) && !type.isInterface()) {
            return new SimpleSerializedType(EventTypes.nameOf(type), Envelope.CURRENT_REVISION);
        }
        return others.typeForClass(type);
    }

    @Override
    public Converter getConverter() {
        return converter;
    }
}
