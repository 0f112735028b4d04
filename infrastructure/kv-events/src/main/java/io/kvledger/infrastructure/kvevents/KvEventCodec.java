package io.kvledger.infrastructure.kvevents;

import io.kvledger.infrastructure.kvevents.KvEvent.AllBlocksCleared;
import io.kvledger.infrastructure.kvevents.KvEvent.BlockRemoved;
import io.kvledger.infrastructure.kvevents.KvEvent.BlockStored;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ArrayValue;
import org.msgpack.value.MapValue;
import org.msgpack.value.Value;

/**
 * vLLM's msgpack payload of a KV event batch, as msgspec writes it: the batch as an array
 * {@code [ts, events, data_parallel_rank]} (msgspec {@code array_like}); each event a map whose first
 * key is {@code "type"} ({@link KvEventEncoding#MAP}) or an array whose first element is the tag
 * ({@link KvEventEncoding#ARRAY}); fields in vLLM's declaration order; with {@code omit_defaults}, a
 * field that has a default is left out when it holds it (in an array only at the end), while the
 * fields without one are always written, {@code nil} when {@code None}. Hashes are unsigned 64-bit
 * integers, timestamps 64-bit floats. The decoder reads both encodings, for tests and tools.
 */
public final class KvEventCodec {

    private KvEventCodec() {
    }

    public static byte[] encode(KvEventBatch batch, KvEventEncoding encoding) {
        try (MessageBufferPacker p = MessagePack.newDefaultBufferPacker()) {
            p.packArrayHeader(batch.dataParallelRank() == null ? 2 : 3);
            p.packDouble(batch.ts());
            p.packArrayHeader(batch.events().size());
            for (KvEvent event : batch.events()) {
                Map<String, Object> fields = fields(event, encoding);
                if (encoding == KvEventEncoding.MAP) {
                    p.packMapHeader(fields.size() + 1);
                    p.packString("type");
                    p.packString(event.tag());
                    for (Map.Entry<String, Object> field : fields.entrySet()) {
                        p.packString(field.getKey());
                        pack(p, field.getValue());
                    }
                } else {
                    p.packArrayHeader(fields.size() + 1);
                    p.packString(event.tag());
                    for (Object value : fields.values()) {
                        pack(p, value);
                    }
                }
            }
            if (batch.dataParallelRank() != null) {
                p.packInt(batch.dataParallelRank());
            }
            return p.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("msgpack into memory cannot fail", e);
        }
    }

    /**
     * The written fields in order. Fields without a default in vLLM are always present; those with
     * one ({@code extra_keys}, {@code group_idx}, {@code kv_cache_spec_kind}, {@code kv_cache_spec_sliding_window})
     * only when set. An
     * array has no gaps, so there an unset {@code extra_keys} before a set {@code group_idx} is nil.
     */
    private static Map<String, Object> fields(KvEvent event, KvEventEncoding encoding) {
        Map<String, Object> f = new LinkedHashMap<>();
        if (event instanceof BlockStored e) {
            f.put("block_hashes", new Hashes(e.blockHashes()));
            f.put("parent_block_hash", e.parentBlockHash() == null ? null : new Hash(e.parentBlockHash()));
            f.put("token_ids", e.tokenIds());
            f.put("block_size", e.blockSize());
            f.put("lora_id", e.loraId());
            f.put("medium", e.medium());
            f.put("lora_name", e.loraName());
            if (encoding == KvEventEncoding.ARRAY && (e.groupIdx() != null || e.kvCacheSpecKind() != null)) {
                f.put("extra_keys", null);
                f.put("group_idx", e.groupIdx());
            } else if (e.groupIdx() != null) {
                f.put("group_idx", e.groupIdx());
            }
            if (e.kvCacheSpecKind() != null || (encoding == KvEventEncoding.ARRAY && e.kvCacheSpecSlidingWindow() != null)) {
                f.put("kv_cache_spec_kind", e.kvCacheSpecKind());
            }
            if (e.kvCacheSpecSlidingWindow() != null) {
                f.put("kv_cache_spec_sliding_window", e.kvCacheSpecSlidingWindow());
            }
        } else if (event instanceof BlockRemoved e) {
            f.put("block_hashes", new Hashes(e.blockHashes()));
            f.put("medium", e.medium());
            if (e.groupIdx() != null) {
                f.put("group_idx", e.groupIdx());
            }
        }
        return f;
    }

    private record Hash(long bits) {
    }

    private record Hashes(List<Long> bits) {
    }

    private static void pack(MessagePacker p, Object value) throws IOException {
        if (value == null) {
            p.packNil();
        } else if (value instanceof Hash h) {
            packUnsigned(p, h.bits());
        } else if (value instanceof Hashes hashes) {
            p.packArrayHeader(hashes.bits().size());
            for (long bits : hashes.bits()) {
                packUnsigned(p, bits);
            }
        } else if (value instanceof Integer i) {
            p.packInt(i);
        } else if (value instanceof String s) {
            p.packString(s);
        } else if (value instanceof List<?> ints) {
            p.packArrayHeader(ints.size());
            for (Object i : ints) {
                p.packInt((Integer) i);
            }
        } else {
            throw new IllegalArgumentException("no msgpack form for " + value.getClass());
        }
    }

    private static void packUnsigned(MessagePacker p, long bits) throws IOException {
        if (bits >= 0) {
            p.packLong(bits);
        } else {
            p.packBigInteger(new BigInteger(Long.toUnsignedString(bits)));
        }
    }

    /** Reads a payload in either encoding; unknown fields are skipped, as vLLM's consumers do. */
    public static KvEventBatch decode(byte[] payload) {
        try (MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(payload)) {
            Value value = unpacker.unpackValue();
            if (unpacker.hasNext()) {
                throw new IllegalArgumentException("bytes after the batch");
            }
            ArrayValue batch = value.asArrayValue();
            double ts = batch.get(0).asFloatValue().toDouble();
            List<KvEvent> events = new ArrayList<>();
            for (Value event : batch.get(1).asArrayValue()) {
                events.add(event.isMapValue() ? fromMap(event.asMapValue()) : fromArray(event.asArrayValue()));
            }
            Integer rank = batch.size() > 2 && !batch.get(2).isNilValue() ? batch.get(2).asIntegerValue().toInt() : null;
            return new KvEventBatch(ts, events, rank);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static KvEvent fromMap(MapValue map) {
        Map<String, Value> f = new LinkedHashMap<>();
        map.map().forEach((k, v) -> f.put(k.asStringValue().asString(), v));
        return event(f.get("type").asStringValue().asString(), f);
    }

    private static KvEvent fromArray(ArrayValue array) {
        String tag = array.get(0).asStringValue().asString();
        String[] names = switch (tag) {
            case "BlockStored" -> new String[] {"block_hashes", "parent_block_hash", "token_ids", "block_size",
                "lora_id", "medium", "lora_name", "extra_keys", "group_idx", "kv_cache_spec_kind",
                "kv_cache_spec_sliding_window"};
            case "BlockRemoved" -> new String[] {"block_hashes", "medium", "group_idx"};
            default -> new String[0];
        };
        Map<String, Value> f = new LinkedHashMap<>();
        for (int i = 0; i < names.length && i + 1 < array.size(); i++) {
            f.put(names[i], array.get(i + 1));
        }
        return event(tag, f);
    }

    private static KvEvent event(String tag, Map<String, Value> f) {
        return switch (tag) {
            case "BlockStored" -> new BlockStored(hashes(f.get("block_hashes")), hash(f.get("parent_block_hash")),
                    ints(f.get("token_ids")), f.get("block_size").asIntegerValue().toInt(), integer(f.get("lora_id")),
                    string(f.get("medium")), string(f.get("lora_name")), integer(f.get("group_idx")),
                    string(f.get("kv_cache_spec_kind")), integer(f.get("kv_cache_spec_sliding_window")));
            case "BlockRemoved" -> new BlockRemoved(hashes(f.get("block_hashes")), string(f.get("medium")),
                    integer(f.get("group_idx")));
            case "AllBlocksCleared" -> new AllBlocksCleared();
            default -> throw new IllegalArgumentException("unknown KV event tag " + tag);
        };
    }

    private static List<Long> hashes(Value value) {
        List<Long> hashes = new ArrayList<>();
        for (Value v : value.asArrayValue()) {
            hashes.add(hash(v));
        }
        return hashes;
    }

    private static Long hash(Value value) {
        return value == null || value.isNilValue() ? null : value.asIntegerValue().toBigInteger().longValue();
    }

    private static List<Integer> ints(Value value) {
        List<Integer> ints = new ArrayList<>();
        for (Value v : value.asArrayValue()) {
            ints.add(v.asIntegerValue().toInt());
        }
        return ints;
    }

    private static Integer integer(Value value) {
        return value == null || value.isNilValue() ? null : value.asIntegerValue().toInt();
    }

    private static String string(Value value) {
        return value == null || value.isNilValue() ? null : value.asStringValue().asString();
    }
}
