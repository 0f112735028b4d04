package io.kvledger.infrastructure.store;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.DeserializationConfig;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleDeserializers;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.kvledger.containers.StateHashMap;
import io.kvledger.containers.StateMap;
import io.kvledger.containers.StateTreeMap;
import io.kvledger.domain.state.EngineState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The engine's state as JSON, for snapshots: the domain's records field by field (their record
 * components, nothing derived), maps as arrays of {@code [key, value]} pairs and sequences, queues and sets
 * as arrays. Every order is canonical (version 2; docs/embedded-store.md, "Snapshots"): the state's maps by key
 * ascending (requests and retired requests by id, fences and window holds by block id, jobs by job id), the
 * retired requests' queue oldest first, a job's ids ascending, block tables in table order, the tier's chunks
 * in its LRU order ({@link TierJson}). Version 1 wrote the same shape with the hash maps in Vavr's hash-trie
 * order; reading takes entries in any order, so it reads both. Reading fails on anything unknown, so a snapshot
 * of another shape is refused, not half read.
 */
final class StateCodec {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .visibility(PropertyAccessor.ALL, JsonAutoDetect.Visibility.NONE)
            .visibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .addModule(containers())
            .addModule(GroupedStateJson.module())
            .addModule(TierJson.module())
            .addModule(RetiredJson.module())
            .addModule(TableJson.module())
            .build();

    private StateCodec() {
    }

    static byte[] encode(EngineState state) throws IOException {
        return MAPPER.writeValueAsBytes(state);
    }

    static EngineState decode(byte[] json) throws IOException {
        return MAPPER.readValue(json, EngineState.class);
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static SimpleModule containers() {
        SimpleModule module = new SimpleModule("kvledger-containers");
        module.addSerializer((Class) StateMap.class, new JsonSerializer<StateMap<Object, Object, ?>>() {
            @Override
            public void serialize(StateMap<Object, Object, ?> map, JsonGenerator out, SerializerProvider provider)
                    throws IOException {
                out.writeStartArray();
                for (java.util.Map.Entry<Object, Object> entry : map.entries()) {
                    out.writeStartArray();
                    provider.defaultSerializeValue(entry.getKey(), out);
                    provider.defaultSerializeValue(entry.getValue(), out);
                    out.writeEndArray();
                }
                out.writeEndArray();
            }
        });
        module.setDeserializers(new SimpleDeserializers() {
            @Override
            public JsonDeserializer<?> findBeanDeserializer(JavaType type, DeserializationConfig config, BeanDescription bean)
                    throws com.fasterxml.jackson.databind.JsonMappingException {
                Class<?> raw = type.getRawClass();
                if (raw == StateHashMap.class || raw == StateTreeMap.class) {
                    return new MapReader(raw, type.containedType(0), type.containedType(1));
                }
                return super.findBeanDeserializer(type, config, bean);
            }
        });
        return module;
    }

    private static final class MapReader extends JsonDeserializer<Object> {
        private final Class<?> kind;
        private final JavaType keyType;
        private final JavaType valueType;

        MapReader(Class<?> kind, JavaType keyType, JavaType valueType) {
            this.kind = kind;
            this.keyType = keyType;
            this.valueType = valueType;
        }

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public Object deserialize(JsonParser in, DeserializationContext context) throws IOException {
            expect(in, JsonToken.START_ARRAY, context);
            List<java.util.Map.Entry<Object, Object>> entries = new ArrayList<>();
            while (in.nextToken() != JsonToken.END_ARRAY) {
                expect(in, JsonToken.START_ARRAY, context);
                in.nextToken();
                Object key = context.readValue(in, keyType);
                in.nextToken();
                Object value = context.readValue(in, valueType);
                if (in.nextToken() != JsonToken.END_ARRAY) {
                    context.reportInputMismatch(this, "a map entry is a [key, value] pair");
                }
                entries.add(new java.util.AbstractMap.SimpleImmutableEntry<>(key, value));
            }
            return kind == StateHashMap.class ? StateHashMap.ofEntries(entries) : StateTreeMap.ofEntries((List) entries);
        }
    }

    private static void expect(JsonParser in, JsonToken token, DeserializationContext context) throws IOException {
        if (in.currentToken() != token) {
            context.reportInputMismatch(EngineState.class, "expected " + token + ", was " + in.currentToken());
        }
    }
}
