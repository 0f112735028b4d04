package io.kvledger.infrastructure.metrics;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.domain.group.GroupKeys;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.JobIds;
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
 * exactly the meters it did.
 *
 * <p>The gauges count over the whole state, so they are computed on the stepping thread (the state is a view
 * valid until the next step, which changes it in place, and only that thread may read it), and not after every
 * step: after the first, after a step that follows a scrape that read them, and after a step at least
 * {@link #REFRESH_NANOS} after the last computation. A scrape reads the values last computed: those of a step at
 * most a second older than the last one before it.
 */
final class GroupMeters {

    /** At most this long (of steps) between two computations of the gauges, when no scrape asks sooner. */
    static final long REFRESH_NANOS = 1_000_000_000L;
    private static final int HELD = 0;
    private static final int FENCES = 1;
    private static final int TIER_CHUNKS = 2;

    private final MeterRegistry registry;
    private final String engine;
    /** Per group: blocks held, fences, tier chunks, as of the step that computed them (replaced whole). */
    private volatile int[][] values;
    /** Whether a scrape read {@link #values} since they were computed. */
    private volatile boolean read;
    private long computedAt;
    private Counter[] freed;
    private boolean decided;

    GroupMeters(MeterRegistry registry, String engine) {
        this.registry = registry;
        this.engine = engine;
    }

    /** On the stepping thread, with the step's state (read here only). */
    void onStep(List<EngineEvent> events, EngineState state) {
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
        long now = System.nanoTime();
        if (values == null || read || now - computedAt >= REFRESH_NANOS) {
            computedAt = now;
            read = false;
            values = computed(state, freed.length);
        }
    }

    private static int[][] computed(EngineState state, int groups) {
        int[][] computed = new int[groups][];
        for (int g = 0; g < groups; g++) {
            computed[g] = new int[] {blocksHeld(state, g), fences(state, g), tierChunks(state, g)};
        }
        return computed;
    }

    private void register(EngineConfig config) {
        int groups = config.groupCount();
        freed = new Counter[groups];
        for (int g = 0; g < groups; g++) {
            int group = g;
            String kind = config.group(g).kind().name();
            gauge("kvledger.group.blocks.held", "GPU blocks the live requests' tables of this KV cache group hold "
                    + "(null entries not counted)", group, kind, HELD);
            gauge("kvledger.group.fences", "fenced GPU blocks that stores of this KV cache group still read",
                    group, kind, FENCES);
            gauge("kvledger.group.tier.chunks", "CPU tier chunks of this KV cache group (ready or being written)",
                    group, kind, TIER_CHUNKS);
            freed[g] = Counter.builder("kvledger.group.window_blocks_freed")
                    .description("sliding-window blocks the host freed while their request ran (WindowBlocksFreed)")
                    .tag("engine", engine).tag("group", String.valueOf(g)).tag("kind", kind).register(registry);
        }
    }

    /** A gauge of what the stepping thread computed last: a scrape never reads the state. */
    private void gauge(String name, String help, int group, String kind, int meter) {
        Gauge.builder(name, this, self -> self.valueOf(group, meter))
                .description(help).tag("engine", engine).tag("group", String.valueOf(group)).tag("kind", kind)
                .register(registry);
    }

    private double valueOf(int group, int meter) {
        int[][] last = values;
        read = true;
        return last == null ? 0 : last[group][meter];
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
        for (Map.Entry<Integer, JobIds> fence : state.fences().toJavaMap().entrySet()) {
            Job job = fence.getValue().isEmpty() ? null : state.job(fence.getValue().get(0));
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
