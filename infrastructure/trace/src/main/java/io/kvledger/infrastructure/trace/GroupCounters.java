package io.kvledger.infrastructure.trace;

import io.kvledger.application.replay.FoldStep;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.RequestEvent;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.domain.group.GroupKeys;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.TierChunk;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The counter tracks a grouped engine adds (contract section 7), one series per KV cache group: GPU blocks
 * the requests' tables hold, CPU-tier chunks ready and being written, stores and loads in flight that
 * read or write the group, and window blocks freed so far. Only a grouped log has them, so a trace
 * without groups is what it was. Kept up to date from what each event changes: the tables of the
 * event's request, the chunks its keys name, the jobs it schedules or ends.
 */
final class GroupCounters {

    private final TraceEvents out;
    private int groups;
    private String[] series;
    private long[] held;
    private long[] ready;
    private long[] writing;
    private long[] stores;
    private long[] loads;
    private long[] freed;
    private final Map<Long, boolean[]> jobGroups = new HashMap<>();
    private final Map<Long, Boolean> jobIsStore = new HashMap<>();
    private final Map<String, long[]> last = new HashMap<>();

    GroupCounters(TraceEvents out) {
        this.out = out;
    }

    /** Whether the engine folded so far is grouped (its counters are shown). */
    boolean active() {
        return groups > 0;
    }

    /** Whether the event being folded had a state before it (read by {@link #before}). */
    private boolean hadBefore;
    /** Whether the job the event completes was in flight before it. */
    private boolean jobInFlightBefore;
    /** The tier chunks the event may change, distinct, taken out as they were before it. */
    private Collection<String> changing = List.of();

    /**
     * Reads, before the event is folded (a step {@link io.kvledger.application.replay.LogFold#prepare} gave),
     * what the counts after it need of the state before it: the request's blocks and the tier chunks it may
     * change are taken out as they were; {@link #changed} adds them back as they are after it.
     */
    void before(FoldStep pending) {
        EngineEvent event = pending.event();
        EngineState before = pending.before();
        hadBefore = before != null;
        jobInFlightBefore = false;
        changing = List.of();
        if (event instanceof EngineConfigured || !active() || before == null) {
            return;
        }
        if (event instanceof RequestEvent e) {
            RequestState request = before.heldRequest(e.requestId());
            for (int g = 0; g < groups; g++) {
                held[g] -= blocks(request, g);
            }
        }
        if (event instanceof StoreJobCompleted e) {
            jobInFlightBefore = before.job(e.jobId()) != null;
        } else if (event instanceof LoadJobCompleted e) {
            jobInFlightBefore = before.job(e.jobId()) != null;
        }
        if (!(event instanceof CacheReset)) {
            changing = TierCounts.distinct(TraceCounters.keysOf(event, before));
            tierAdd(before.tier(), changing, -1);
        }
    }

    /** Takes the counts after one folded event, from the state it folded to ({@link #before} read the one before). */
    void changed(FoldStep step) {
        EngineEvent event = step.event();
        EngineState after = step.after();
        if (event instanceof EngineConfigured) {
            configure(after.config());
            return;
        }
        if (!active()) {
            return;
        }
        if (event instanceof RequestEvent e && hadBefore) {
            RequestState request = after.heldRequest(e.requestId());
            for (int g = 0; g < groups; g++) {
                held[g] += blocks(request, g);
            }
        }
        if (event instanceof WindowBlocksFreed e) {
            for (int g = 0; g < groups && g < e.blockIds().groupCount(); g++) {
                freed[g] += e.blockIds().group(g).size();
            }
        }
        if (event instanceof StoreJobScheduled e && after.job(e.jobId()) != null) {
            scheduled(e.jobId(), true, e.chunkIndices());
        } else if (event instanceof LoadJobScheduled e && after.job(e.jobId()) != null) {
            scheduled(e.jobId(), false, e.chunkIndices());
        }
        if (event instanceof StoreJobCompleted e) {
            ended(e.jobId(), after);
        } else if (event instanceof LoadJobCompleted e) {
            ended(e.jobId(), after);
        } else if (event instanceof CacheReset) {
            endedJobs(after);
        }
        if (!hadBefore || event instanceof CacheReset) {
            tier(after.tier());
        } else {
            tierAdd(after.tier(), changing, 1);
        }
    }

    void emit(long ts) throws IOException {
        if (!active()) {
            return;
        }
        write("blocks held", held, ts);
        write("tier ready", ready, ts);
        write("tier writing", writing, ts);
        write("stores in flight", stores, ts);
        write("loads in flight", loads, ts);
        write("window blocks freed", freed, ts);
    }

    private void configure(EngineConfig config) {
        jobGroups.clear();
        jobIsStore.clear();
        last.clear();
        groups = config.isGrouped() ? config.groupCount() : 0;
        series = new String[groups];
        for (int g = 0; g < groups; g++) {
            series[g] = "g" + g;
        }
        held = new long[groups];
        ready = new long[groups];
        writing = new long[groups];
        stores = new long[groups];
        loads = new long[groups];
        freed = new long[groups];
    }

    private static int blocks(RequestState request, int g) {
        if (request == null || g >= request.tableCount()) {
            return 0;
        }
        int blocks = 0;
        for (Integer block : request.table(g)) {
            blocks += block == null ? 0 : 1;
        }
        return blocks;
    }

    private void scheduled(long jobId, boolean store, PerGroup<Integer> chunks) {
        boolean[] touched = new boolean[groups];
        long[] counts = store ? stores : loads;
        for (int g = 0; g < groups && g < chunks.groupCount(); g++) {
            touched[g] = !chunks.group(g).isEmpty();
            counts[g] += touched[g] ? 1 : 0;
        }
        jobGroups.put(jobId, touched);
        jobIsStore.put(jobId, store);
    }

    private void ended(long jobId, EngineState after) {
        if (jobInFlightBefore && after.job(jobId) == null) {
            end(jobId);
        }
    }

    /** At a reset: the jobs no longer in the state ended. */
    private void endedJobs(EngineState after) {
        for (Long jobId : new ArrayList<>(jobGroups.keySet())) {
            if (after.job(jobId) == null) {
                end(jobId);
            }
        }
    }

    private void end(long jobId) {
        boolean[] touched = jobGroups.remove(jobId);
        Boolean store = jobIsStore.remove(jobId);
        if (touched == null) {
            return;
        }
        long[] counts = store ? stores : loads;
        for (int g = 0; g < groups; g++) {
            counts[g] -= touched[g] ? 1 : 0;
        }
    }

    /** Adds ({@code sign} 1) or takes out (-1) the chunks of {@code keys} (distinct) as {@code tier} holds them. */
    private void tierAdd(CpuTier tier, Collection<String> keys, int sign) {
        for (String key : keys) {
            TierChunk chunk = tier.chunk(key);
            if (chunk != null) {
                int g = groupOf(key);
                ready[g] += sign * (chunk.ready() ? 1 : 0);
                writing[g] += sign * (chunk.ready() ? 0 : 1);
            }
        }
    }

    /** The tier by group: a key of group g > 0 ends in {@code /g<g>} (the domain's keys). */
    private void tier(CpuTier tier) {
        Arrays.fill(ready, 0);
        Arrays.fill(writing, 0);
        for (TierChunk chunk : tier.chunkList()) {
            int g = groupOf(chunk.key());
            if (chunk.ready()) {
                ready[g]++;
            } else {
                writing[g]++;
            }
        }
    }

    private int groupOf(String key) {
        return GroupKeys.groupOf(key, groups);
    }

    private void write(String name, long[] values, long ts) throws IOException {
        long[] previous = last.get(name);
        if (previous != null && Arrays.equals(previous, values)) {
            return;
        }
        out.counter(LogTrace.ENGINE_PID, name + " by group", ts, series, values.clone());
        last.put(name, values.clone());
    }
}
