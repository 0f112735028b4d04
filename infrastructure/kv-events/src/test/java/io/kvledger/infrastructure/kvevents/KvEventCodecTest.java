package io.kvledger.infrastructure.kvevents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.kvevents.KvEvent.AllBlocksCleared;
import io.kvledger.infrastructure.kvevents.KvEvent.BlockRemoved;
import io.kvledger.infrastructure.kvevents.KvEvent.BlockStored;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ArrayValue;
import org.msgpack.value.MapValue;
import org.msgpack.value.Value;
import org.msgpack.value.ValueType;

/** The msgpack payload byte for byte as msgspec writes vLLM's structs, read back with msgpack-core alone. */
class KvEventCodecTest {

    private static final BlockStored STORED = new BlockStored(List.of(0x8000000000000001L, 7L), 0xFFFFFFFFFFFFFFFFL,
            List.of(1, 2, 300, 70000), 2, null, "CPU", null, 0, KvEvent.FULL_ATTENTION);

    @Test
    void aClearedBatchIsTheArrayOfTsEventsAndRankWithATypeTaggedMap() {
        byte[] bytes = KvEventCodec.encode(new KvEventBatch(1.5, List.of(new AllBlocksCleared()), 0), KvEventEncoding.MAP);
        // [1.5, [{"type": "AllBlocksCleared"}], 0]: fixarray 3, float64, fixarray 1, fixmap 1, "type", "AllBlocksCleared", 0
        assertEquals("93" + "cb3ff8000000000000" + "91" + "81" + "a474797065" + "b0" + hex("AllBlocksCleared") + "00",
                HexFormat.of().formatHex(bytes));
    }

    @Test
    void mapEncodingPutsTheTagFirstThenFieldsInVllmsOrderOmittingUnsetDefaults() throws Exception {
        MapValue event = onlyEvent(KvEventEncoding.MAP).asMapValue();
        List<String> keys = new ArrayList<>();
        event.getKeyValueArray();
        Value[] kv = event.getKeyValueArray();
        for (int i = 0; i < kv.length; i += 2) {
            keys.add(kv[i].asStringValue().asString());
        }
        assertEquals(List.of("type", "block_hashes", "parent_block_hash", "token_ids", "block_size", "lora_id",
                "medium", "lora_name", "group_idx", "kv_cache_spec_kind"), keys);
        assertEquals("BlockStored", kv[1].asStringValue().asString());
        assertEquals(ValueType.NIL, kv[11].getValueType(), "lora_id has no default: written as nil");
        assertEquals("CPU", kv[13].asStringValue().asString());
        assertEquals("full_attention", kv[19].asStringValue().asString());
    }

    @Test
    void arrayEncodingIsPositionalAsOlderVllmAndTheLlmdDecoderRead() throws Exception {
        ArrayValue event = onlyEvent(KvEventEncoding.ARRAY).asArrayValue();
        assertEquals(11, event.size(), "tag + 10 fields up to kv_cache_spec_kind");
        assertEquals("BlockStored", event.get(0).asStringValue().asString());
        assertEquals("9223372036854775809", event.get(1).asArrayValue().get(0).asIntegerValue().toBigInteger().toString());
        assertEquals("18446744073709551615", event.get(2).asIntegerValue().toBigInteger().toString(), "unsigned parent");
        assertEquals(70000, event.get(3).asArrayValue().get(3).asIntegerValue().toInt());
        assertEquals(2, event.get(4).asIntegerValue().toInt());
        assertTrue(event.get(5).isNilValue(), "lora_id");
        assertEquals("CPU", event.get(6).asStringValue().asString());
        assertTrue(event.get(7).isNilValue(), "lora_name");
        assertTrue(event.get(8).isNilValue(), "extra_keys");
        assertEquals(0, event.get(9).asIntegerValue().toInt(), "group_idx");
        assertEquals("full_attention", event.get(10).asStringValue().asString());
    }

    @Test
    void hashesAtOrAbove2To63AreUnsigned64BitIntegers() {
        byte[] bytes = KvEventCodec.encode(new KvEventBatch(0, List.of(
                new BlockRemoved(List.of(-1L), "CPU", null)), null), KvEventEncoding.MAP);
        String hex = HexFormat.of().formatHex(bytes);
        assertTrue(hex.contains("91cfffffffffffffffff"), "a uint64 (0xcf), not an int64: " + hex);
        assertTrue(hex.startsWith("92"), "no rank: [ts, events] only");
    }

    @ParameterizedTest
    @EnumSource(KvEventEncoding.class)
    void randomBatchesDecodeToWhatWasEncoded(KvEventEncoding encoding) {
        SplittableRandom random = new SplittableRandom(14);
        for (int n = 0; n < 300; n++) {
            List<KvEvent> events = new ArrayList<>();
            for (int i = random.nextInt(6); i > 0; i--) {
                List<Long> hashes = new ArrayList<>();
                for (int h = 1 + random.nextInt(4); h > 0; h--) {
                    hashes.add(random.nextLong());
                }
                List<Integer> tokens = new ArrayList<>();
                for (int t = random.nextInt(40); t > 0; t--) {
                    tokens.add(random.nextInt(200_000));
                }
                events.add(switch (random.nextInt(3)) {
                    case 0 -> new BlockStored(hashes, random.nextBoolean() ? null : random.nextLong(), tokens,
                            1 + random.nextInt(64), null, "CPU", null, 0, KvEvent.FULL_ATTENTION);
                    case 1 -> new BlockRemoved(hashes, "CPU", 0);
                    default -> new AllBlocksCleared();
                });
            }
            KvEventBatch batch = new KvEventBatch(random.nextDouble() * 2e9, events, random.nextInt(4));
            assertEquals(batch, KvEventCodec.decode(KvEventCodec.encode(batch, encoding)));
        }
    }

    private static Value onlyEvent(KvEventEncoding encoding) throws Exception {
        byte[] bytes = KvEventCodec.encode(new KvEventBatch(2.0, List.of(STORED), 0), encoding);
        try (MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(bytes)) {
            ArrayValue batch = unpacker.unpackValue().asArrayValue();
            assertEquals(3, batch.size());
            assertEquals(2.0, batch.get(0).asFloatValue().toDouble());
            assertEquals(0, batch.get(2).asIntegerValue().toInt());
            return batch.get(1).asArrayValue().get(0);
        }
    }

    private static String hex(String text) {
        return HexFormat.of().formatHex(text.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }
}
