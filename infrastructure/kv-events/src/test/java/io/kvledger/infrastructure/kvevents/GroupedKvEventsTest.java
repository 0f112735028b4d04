package io.kvledger.infrastructure.kvevents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.application.StepListener;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ArrayValue;
import org.msgpack.value.Value;

/**
 * KV events of a full and a sliding-window group (contract section 7): each {@code BlockStored} names its
 * group, {@code full_attention} or {@code sliding_window} and the window, as vLLM's offloading connector
 * writes them; read back positionally as the llm-d adapter decodes msgpack arrays, a router that indexes
 * only full-attention groups holds exactly group 0's loadable chunks after every step.
 */
class GroupedKvEventsTest {

    private static final EngineConfig CONFIG = EngineConfig.DEFAULTS.withCpuCapacityChunks(6)
            .withGroups(List.of(KvCacheGroup.full(4), KvCacheGroup.slidingWindow(4, 8)));

    @Test
    void eachStoredChunkNamesItsGroupAndARouterFilteringFullAttentionIndexesGroupZerosChunks() throws Exception {
        Recorder recorder = new Recorder();
        try (KvLedger ledger = KvLedger.builder().config(CONFIG).listener(recorder).build()) {
            ledger.step(List.of(new RegisterRequest("a", tokens(0, 8)), new MatchPrefix("a"),
                    allocate("a", List.of(1, 2), List.of(11, 12)), new ComputeTokens("a", 8)));
            ledger.step(List.of(new CompleteTransfer(0)));
            ledger.step(List.of(new RegisterRequest("b", tokens(100, 12)), new MatchPrefix("b"),
                    allocate("b", List.of(3, 4, 5), List.of(13, 14, 15)), new ComputeTokens("b", 12)));
            ledger.step(List.of(new CompleteTransfer(1)));
        }

        Router router = new Router();
        List<Value[]> stored = new ArrayList<>();
        for (int step = 0; step < recorder.payloads.size(); step++) {
            for (Value[] event : positional(recorder.payloads.get(step))) {
                if (event[0].asStringValue().asString().equals("BlockStored")) {
                    stored.add(event);
                }
                router.apply(event);
            }
            assertEquals(recorder.groupZeroReady.get(step), router.index, "after step " + step);
        }
        assertTrue(router.removed > 0, "the second store evicted chunks: " + recorder.events);
        assertEquals(10, stored.size(), "4 chunks of a, then 6 of b: " + recorder.events);
        for (Value[] event : stored) {
            int group = event[9].asIntegerValue().toInt();
            String kind = event[10].asStringValue().asString();
            if (group == 0) {
                assertEquals("full_attention", kind);
                assertEquals(11, event.length, "tag + 10 fields: a full group's window is None, left off the end");
                assertEquals(4, event[4].asIntegerValue().toInt(), "self-describing: block_size B_0");
                assertEquals(4, event[3].asArrayValue().size(), "its tokens");
            } else {
                assertEquals(1, group);
                assertEquals("sliding_window", kind);
                assertEquals(12, event.length, "tag + 11 fields up to kv_cache_spec_sliding_window");
                assertEquals(8, event[11].asIntegerValue().toInt(), "the window in tokens");
                assertEquals(0, event[4].asIntegerValue().toInt(), "a sliding chunk is announced by its key alone");
                assertTrue(event[8].isNilValue(), "extra_keys fills the gap before group_idx");
            }
        }
    }

    @Test
    void theSlidingWindowFieldDecodesBackFromBothEncodings() {
        KvEvent.BlockStored sliding = new KvEvent.BlockStored(List.of(5L), null, List.of(), 0, null, "CPU", null, 1,
                KvEvent.SLIDING_WINDOW, 1024);
        for (KvEventEncoding encoding : KvEventEncoding.values()) {
            KvEventBatch batch = new KvEventBatch(2.0, List.of(sliding, new KvEvent.BlockRemoved(List.of(5L), "CPU", 1)), 0);

            assertEquals(batch, KvEventCodec.decode(KvEventCodec.encode(batch, encoding)), encoding.name());
        }
    }

    /** The index of a router like llm-d's: block hashes of full-attention groups; removals by hash. */
    private static final class Router {
        final Set<Long> index = new TreeSet<>();
        final Set<Integer> fullGroups = new HashSet<>(List.of(0));
        int removed;

        void apply(Value[] event) {
            String tag = event[0].asStringValue().asString();
            if (tag.equals("BlockStored")) {
                boolean full = event.length <= 10 || event[10].isNilValue()
                        || event[10].asStringValue().asString().equals("full_attention");
                if (full) {
                    hashes(event[1]).forEach(index::add);
                }
            } else if (tag.equals("BlockRemoved")) {
                int group = event.length > 3 ? event[3].asIntegerValue().toInt() : 0;
                removed++;
                if (fullGroups.contains(group)) {
                    hashes(event[1]).forEach(index::remove);
                }
            } else if (tag.equals("AllBlocksCleared")) {
                index.clear();
            }
        }

        private static List<Long> hashes(Value array) {
            List<Long> hashes = new ArrayList<>();
            for (Value hash : array.asArrayValue()) {
                hashes.add(hash.asIntegerValue().toBigInteger().longValue());
            }
            return hashes;
        }
    }

    /** Group 0's ready chunks: their keys are the block hashes (F = 1, B_0 = gcd of the block sizes). */
    private static Set<Long> groupZeroReady(EngineState state) {
        Set<Long> ready = new TreeSet<>();
        state.tier().chunks().values().forEach(chunk -> {
            if (chunk.ready() && !chunk.key().contains("/g")) {
                ready.add(ExternalHash.of(chunk.key()));
            }
        });
        return ready;
    }

    /** The batch as the llm-d adapter reads it: {@code [ts, [[tag, field...], ...], rank]}. */
    private static List<Value[]> positional(byte[] payload) throws Exception {
        try (MessageUnpacker unpacker = MessagePack.newDefaultUnpacker(payload)) {
            ArrayValue batch = unpacker.unpackValue().asArrayValue();
            List<Value[]> events = new ArrayList<>();
            for (Value event : batch.get(1).asArrayValue()) {
                ArrayValue fields = event.asArrayValue();
                Value[] values = new Value[fields.size()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = fields.get(i);
                }
                events.add(values);
            }
            return events;
        }
    }

    private static final class Recorder implements StepListener {
        final CpuTierChanges changes = new CpuTierChanges("CPU");
        final List<byte[]> payloads = new ArrayList<>();
        /** Group 0's ready chunks after each step, taken in the step (its state is a view valid until the next). */
        final List<Set<Long>> groupZeroReady = new ArrayList<>();
        final List<KvEvent> events = new ArrayList<>();

        @Override
        public void onStep(int commands, StepResult result, long elapsedNanos) {
            List<KvEvent> step = changes.apply(result.events(), result.state());
            events.addAll(step);
            payloads.add(KvEventCodec.encode(new KvEventBatch(1.0, step, 0), KvEventEncoding.ARRAY));
            groupZeroReady.add(groupZeroReady(result.state()));
        }
    }

    private static EngineCommand allocate(String requestId, List<Integer> full, List<Integer> sliding) {
        return new AllocateBlocks(requestId, PerGroup.of(full, sliding), 0);
    }

    private static List<Integer> tokens(int first, int count) {
        List<Integer> tokens = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            tokens.add(first + i);
        }
        return tokens;
    }
}
