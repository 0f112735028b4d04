package io.kvledger.infrastructure.metrics;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.domain.group.GroupKeys;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.TierChunk;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;

/**
 * The meters whose meaning a KV cache group changes (contract section 7), tagged {@code group} (its index)
 * and {@code kind}: GPU blocks the requests' tables hold, fenced blocks, CPU-tier chunks, and window blocks
 * freed. Registered at the first step of a grouped engine only, so an engine without groups exposes
 * exactly the meters it did. The gauges are computed when they are read (a scrape), never in a step.
 */
final class GroupMeters {

    private final MeterRegistry registry;
    private final String engine;
    private volatile EngineState last;
    private Counter[] freed;
    private boolean decided;

    GroupMeters(MeterRegistry registry, String engine) {
        this.registry = registry;
        this.engine = engine;
    }

    void onStep(List<EngineEvent> events, EngineState state) {
        last = state;
        if (!decided) {
            decided = true;
            if (state.config().isGrouped()) {
                register(state.config());
            }
        }
        if (freed == null) {
            return;
        }
        for (EngineEvent event : events) {
            if (event instanceof WindowBlocksFreed e) {
                for (int g = 0; g < freed.length && g < e.blockIds().groupCount(); g++) {
                    freed[g].increment(e.blockIds().group(g).size());
                }
            }
        }
    }

    private void register(EngineConfig config) {
        int groups = config.groupCount();
        freed = new Counter[groups];
        for (int g = 0; g < groups; g++) {
            int group = g;
            String kind = config.group(g).kind().name();
            gauge("kvledger.group.blocks.held", "GPU blocks the live requests' tables of this KV cache group hold "
                    + "(null entries not counted)", group, kind, state -> blocksHeld(state, group));
            gauge("kvledger.group.fences", "fenced GPU blocks that stores of this KV cache group still read",
                    group, kind, state -> fences(state, group));
            gauge("kvledger.group.tier.chunks", "CPU tier chunks of this KV cache group (ready or being written)",
                    group, kind, state -> tierChunks(state, group));
            freed[g] = Counter.builder("kvledger.group.window_blocks_freed")
                    .description("sliding-window blocks the host freed while their request ran (WindowBlocksFreed)")
                    .tag("engine", engine).tag("group", String.valueOf(g)).tag("kind", kind).register(registry);
        }
    }

    private void gauge(String name, String help, int group, String kind,
                       java.util.function.ToDoubleFunction<EngineState> value) {
        Gauge.builder(name, this, self -> self.last == null ? 0 : value.applyAsDouble(self.last))
                .description(help).tag("engine", engine).tag("group", String.valueOf(group)).tag("kind", kind)
                .register(registry);
    }

    static int blocksHeld(EngineState state, int g) {
        int held = 0;
        for (RequestState request : state.requests().values()) {
            if (g < request.tableCount()) {
                for (Integer block : request.table(g)) {
                    held += block == null ? 0 : 1;
                }
            }
        }
        return held;
    }

    /** A fenced block belongs to the group of the chunk its first fencing store reads it for. */
    static int fences(EngineState state, int g) {
        int groups = state.config().groupCount();
        int f = state.config().blocksPerChunk();
        int fenced = 0;
        for (Map.Entry<Integer, io.vavr.collection.TreeSet<Long>> fence : state.fences().toJavaMap().entrySet()) {
            Job job = fence.getValue().isEmpty() ? null : state.job(fence.getValue().head());
            if (job == null) {
                continue;
            }
            int index = job.blockIds().indexOf(fence.getKey());
            int chunk = index < 0 ? -1 : index / f;
            int group = chunk >= 0 && chunk < job.keys().size() ? GroupKeys.groupOf(job.keys().get(chunk), groups) : 0;
            fenced += group == g ? 1 : 0;
        }
        return fenced;
    }

    static int tierChunks(EngineState state, int g) {
        int groups = state.config().groupCount();
        int chunks = 0;
        for (TierChunk chunk : state.tier().chunkList()) {
            chunks += GroupKeys.groupOf(chunk.key(), groups) == g ? 1 : 0;
        }
        return chunks;
    }
}
