package io.kvledger.infrastructure.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.kvledger.containers.StateHashMap;
import io.kvledger.containers.StateTreeMap;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.TierChunk;
import java.io.IOException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The CPU tier in a snapshot, in the shape it had while the tier was a record of persistent maps: {@code capacity},
 * {@code chunks} (key and chunk pairs, in the tier's LRU order: least recently touched first, ties by key;
 * before {@code StateCodec} version 2, in Vavr's hash order), {@code evictable} (stamp and key pairs, least
 * recent first) and {@code clock}, in that order. Reading takes the chunks in any order. The tier now keeps mutable maps of its own, so its fields are not its shape;
 * this writes the shape from what it reads, and reading checks that the evictable order follows the chunks.
 */
final class TierJson {

    private TierJson() {
    }

    static SimpleModule module() {
        SimpleModule module = new SimpleModule("kvledger-tier");
        module.addSerializer(CpuTier.class, new JsonSerializer<>() {
            @Override
            public void serialize(CpuTier tier, JsonGenerator out, SerializerProvider provider) throws IOException {
                out.writeStartObject();
                out.writeNumberField("capacity", tier.capacity());
                out.writeFieldName("chunks");
                out.writeStartArray();
                for (TierChunk chunk : leastRecentFirst(tier)) {
                    out.writeStartArray();
                    out.writeString(chunk.key());
                    provider.defaultSerializeValue(chunk, out);
                    out.writeEndArray();
                }
                out.writeEndArray();
                out.writeFieldName("evictable");
                out.writeStartArray();
                for (Map.Entry<Long, String> entry : tier.evictable().entrySet()) {
                    out.writeStartArray();
                    out.writeNumber(entry.getKey());
                    out.writeString(entry.getValue());
                    out.writeEndArray();
                }
                out.writeEndArray();
                out.writeNumberField("clock", tier.clock());
                out.writeEndObject();
            }
        });
        module.addDeserializer(CpuTier.class, new JsonDeserializer<>() {
            @Override
            public CpuTier deserialize(JsonParser in, DeserializationContext context) throws IOException {
                if (in.currentToken() != JsonToken.START_OBJECT) {
                    context.reportInputMismatch(CpuTier.class, "the tier is an object");
                }
                JavaType chunksType = context.getTypeFactory().constructParametricType(StateHashMap.class, String.class, TierChunk.class);
                JavaType evictableType = context.getTypeFactory().constructParametricType(StateTreeMap.class, Long.class, String.class);
                Integer capacity = null;
                Long clock = null;
                StateHashMap<String, TierChunk> chunks = null;
                StateTreeMap<Long, String> evictable = null;
                for (String field = in.nextFieldName(); field != null; field = in.nextFieldName()) {
                    in.nextToken();
                    switch (field) {
                        case "capacity" -> capacity = in.getIntValue();
                        case "clock" -> clock = in.getLongValue();
                        case "chunks" -> chunks = context.readValue(in, chunksType);
                        case "evictable" -> evictable = context.readValue(in, evictableType);
                        default -> context.reportInputMismatch(CpuTier.class, "the tier has no field " + field);
                    }
                }
                if (capacity == null || clock == null || chunks == null || evictable == null) {
                    context.reportInputMismatch(CpuTier.class, "the tier needs capacity, chunks, evictable and clock");
                }
                CpuTier tier = CpuTier.of(capacity, chunks.values(), clock);
                if (!tier.evictable().equals(evictable.toJavaMap())) {
                    context.reportInputMismatch(CpuTier.class, "the tier's evictable order does not follow its chunks");
                }
                return tier;
            }
        });
        return module;
    }

    /** The tier's chunks in its LRU order: least recently touched first, a stamp's ties by key. */
    static List<TierChunk> leastRecentFirst(CpuTier tier) {
        List<TierChunk> chunks = tier.chunkList();
        chunks.sort(Comparator.comparingLong(TierChunk::touched).thenComparing(TierChunk::key));
        return chunks;
    }
}
