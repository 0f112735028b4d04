package io.kvledger.infrastructure.trace;

import io.kvledger.application.replay.FoldStep;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import java.io.IOException;
import java.util.Collection;
import java.util.List;

/**
 * The engine's counter tracks: the CPU tier (ready and being written, stacked to what it holds;
 * pinned; capacity), jobs in flight by kind, and fenced blocks. A counter is written when its value
 * changes.
 */
final class TraceCounters {

    private static final String[] TIER = {"ready", "writing"};
    private static final String[] PINNED = {"pinned"};
    private static final String[] CAPACITY = {"capacity"};
    private static final String[] JOBS = {"stores", "loads"};
    private static final String[] FENCED = {"blocks"};

    private final TraceEvents out;
    private TierCounts tier = new TierCounts(0, 0, 0, 0);
    private int stores;
    private int loads;
    private int fenced;
    private long[] lastTier;
    private long[] lastPinned;
    private long[] lastCapacity;
    private long[] lastJobs;
    private long[] lastFenced;

    TraceCounters(TraceEvents out) {
        this.out = out;
    }

    /** The chunks the event being folded may change, distinct; {@code null} when the tier is counted whole after it. */
    private Collection<String> changing;

    /**
     * Reads, before the event is folded (a step {@link io.kvledger.application.replay.LogFold#prepare} gave),
     * what the counts after it need of the state before it: the chunks it may change are taken out as they were.
     */
    void before(FoldStep pending) {
        EngineEvent event = pending.event();
        EngineState before = pending.before();
        changing = null;
        if (!(event instanceof EngineConfigured || event instanceof CacheReset || before == null)) {
            changing = TierCounts.distinct(keysOf(event, before));
            if (!changing.isEmpty()) {
                tier = tier.without(before.tier(), changing);
            }
        }
    }

    /** Takes the counts after one folded event, from the state it folded to ({@link #before} read the one before). */
    void changed(FoldStep step, int storesInFlight, int loadsInFlight) {
        tier = tierAfter(step);
        stores = storesInFlight;
        loads = loadsInFlight;
        fenced = step.after().fences().size();
    }

    TierCounts tier() {
        return tier;
    }

    void emit(long ts) throws IOException {
        lastCapacity = write("tier capacity", CAPACITY, lastCapacity, ts, tier.capacity());
        lastTier = write("tier chunks", TIER, lastTier, ts, tier.ready(), tier.writing());
        lastPinned = write("tier pinned", PINNED, lastPinned, ts, tier.pinned());
        lastJobs = write("jobs in flight", JOBS, lastJobs, ts, stores, loads);
        lastFenced = write("fenced blocks", FENCED, lastFenced, ts, fenced);
    }

    private long[] write(String name, String[] series, long[] last, long ts, long... values) throws IOException {
        if (last != null && java.util.Arrays.equals(last, values)) {
            return last;
        }
        out.counter(LogTrace.ENGINE_PID, name, ts, series, values);
        return values;
    }

    private TierCounts tierAfter(FoldStep step) {
        EngineState after = step.after();
        if (changing == null) {
            return TierCounts.of(after.tier());
        }
        return changing.isEmpty() ? tier : tier.with(after.tier(), changing);
    }

    /** The tier chunks an event may change: those it names, or those of the job it ends. */
    static List<String> keysOf(EngineEvent event, EngineState before) {
        if (event instanceof StoreJobScheduled e) {
            return e.keys().flat();
        } else if (event instanceof LoadJobScheduled e) {
            return e.keys().flat();
        } else if (event instanceof ChunksStored e) {
            return e.keys();
        } else if (event instanceof ChunksEvicted e) {
            return e.keys();
        } else if (event instanceof StoreJobCompleted e) {
            return jobKeys(before, e.jobId());
        } else if (event instanceof LoadJobCompleted e) {
            return jobKeys(before, e.jobId());
        }
        return List.of();
    }

    private static List<String> jobKeys(EngineState before, long jobId) {
        Job job = before.job(jobId);
        return job == null ? List.of() : job.keys();
    }
}
