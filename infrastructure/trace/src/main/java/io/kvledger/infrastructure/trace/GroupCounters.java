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
import java.util.HashMap;
import java.util.LinkedHashSet;
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

    /** Takes the counts after one folded event. */
    void changed(FoldStep step) {
        EngineEvent event = step.event();
        EngineState before = step.before();
        EngineState after = step.after();
        if (event instanceof EngineConfigured) {
            configure(after.config());
            return;
        }
        if (!active()) {
            return;
        }
        if (event instanceof RequestEvent e && before != null) {
            heldChanged(before.heldRequest(e.requestId()), after.heldRequest(e.requestId()));
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
            ended(e.jobId(), before, after);
        } else if (event instanceof LoadJobCompleted e) {
            ended(e.jobId(), before, after);
        } else if (event instanceof CacheReset) {
            endedJobs(after);
        }
        if (before == null || event instanceof CacheReset) {
            tier(after.tier());
        } else {
            tierChanged(before, after, TraceCounters.keysOf(event, before));
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

    private void heldChanged(RequestState before, RequestState after) {
        for (int g = 0; g < groups; g++) {
            held[g] += blocks(after, g) - blocks(before, g);
        }
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

    private void ended(long jobId, EngineState before, EngineState after) {
        if (before != null && before.job(jobId) != null && after.job(jobId) == null) {
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

    private void tierChanged(EngineState before, EngineState after, List<String> keys) {
        for (String key : new LinkedHashSet<>(keys)) {
            int g = groupOf(key);
            TierChunk was = before.tier().chunk(key);
            TierChunk is = after.tier().chunk(key);
            if (was != null) {
                ready[g] -= was.ready() ? 1 : 0;
                writing[g] -= was.ready() ? 0 : 1;
            }
            if (is != null) {
                ready[g] += is.ready() ? 1 : 0;
                writing[g] += is.ready() ? 0 : 1;
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
