package io.kvledger.simulation;

import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.WindowBlocksFreed;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a simulation did, counted from the events it produced (so it can be recounted from the log),
 * plus steps, commands and the wall time, which are not in the log.
 */
public final class SimulationSummary {

    long requests;
    long finished;
    long aborted;
    long preemptions;
    long steps;
    long commands;
    long events;
    long storeJobs;
    long loadJobs;
    long chunksStored;
    long chunksLoaded;
    long flushes;
    long storesDeferred;
    long chunksEvicted;
    /** Sliding-window blocks the host freed while their requests ran (grouped models only). */
    long windowBlocksFreed;
    /** Requests refused at arrival (they can never fit the GPU pool), registered and aborted at once. */
    long refused;
    final Map<String, Long> rejections = new TreeMap<>();
    long nanos;
    /** CPU time of the thread that stepped: in the engine's {@code step}, and in all (the host's share is the rest). */
    long engineCpuNanos;
    long steppingCpuNanos;
    /** What was checked after every step; the summary says so when it was not everything. */
    Checks checks = Checks.ALL;
    private final Map<Long, Integer> loadSizes = new HashMap<>();

    void count(EngineEvent event) {
        events++;
        if (event instanceof RequestRegistered) {
            requests++;
        } else if (event instanceof RequestFinished) {
            finished++;
        } else if (event instanceof RequestAborted) {
            aborted++;
        } else if (event instanceof RequestPreempted) {
            preemptions++;
        } else if (event instanceof StoreJobScheduled) {
            storeJobs++;
        } else if (event instanceof LoadJobScheduled e) {
            loadJobs++;
            loadSizes.put(e.jobId(), e.chunkIndices().flat().size());
        } else if (event instanceof LoadJobCompleted e) {
            Integer size = loadSizes.remove(e.jobId());
            if (e.success() && size != null) {
                chunksLoaded += size;
            }
        } else if (event instanceof ChunksStored e) {
            chunksStored += e.keys().size();
        } else if (event instanceof ChunksEvicted e) {
            chunksEvicted += e.keys().size();
        } else if (event instanceof WindowBlocksFreed e) {
            windowBlocksFreed += e.blockIds().totalSize();
        } else if (event instanceof FlushRequired) {
            flushes++;
        } else if (event instanceof StoreDeferred) {
            storesDeferred++;
        } else if (event instanceof CommandRejected e) {
            rejections.merge(e.code().name(), 1L, Long::sum);
        }
    }

    public long requests() { return requests; }
    public long finished() { return finished; }
    public long aborted() { return aborted; }
    public long preemptions() { return preemptions; }
    public long steps() { return steps; }
    public long commands() { return commands; }
    public long events() { return events; }
    public long storeJobs() { return storeJobs; }
    public long loadJobs() { return loadJobs; }
    public long chunksStored() { return chunksStored; }
    public long chunksLoaded() { return chunksLoaded; }
    public long flushes() { return flushes; }
    public long storesDeferred() { return storesDeferred; }
    public long chunksEvicted() { return chunksEvicted; }
    public long refused() { return refused; }
    public Map<String, Long> rejections() { return Map.copyOf(rejections); }

    public long rejectionCount() {
        return rejections.values().stream().mapToLong(Long::longValue).sum();
    }

    /** CPU seconds the engine's steps took (Axon and the domain), measured on the stepping thread; 0 unless {@link Simulator#timed}. */
    public double engineCpuSeconds() {
        return engineCpuNanos / 1e9;
    }

    /** CPU seconds of the stepping thread: the engine's steps and the simulated host's work; 0 unless {@link Simulator#timed}. */
    public double steppingCpuSeconds() {
        return steppingCpuNanos / 1e9;
    }

    public double seconds() {
        return nanos / 1e9;
    }

    public String text(long seed) {
        return String.format(java.util.Locale.ROOT,
                "simulated %d requests (seed %d): %d finished, %d aborted%s, %d preemptions%n"
                        + "steps %d, commands %d, events %d%n"
                        + "jobs %d (%d stores, %d loads), chunks stored %d, chunks loaded %d%n"
                        + "flushes %d, stores deferred %d, chunks evicted %d%s%n"
                        + "rejections %d %s%n"
                        + "violations 0%s%n"
                        + "%.1f s, %.0f events/s%n",
                requests, seed, finished, aborted, refused == 0 ? "" : " (" + refused + " refused: too long for the GPU pool)",
                preemptions, steps, commands, events,
                storeJobs + loadJobs, storeJobs, loadJobs, chunksStored, chunksLoaded,
                flushes, storesDeferred, chunksEvicted,
                windowBlocksFreed == 0 ? "" : ", window blocks freed " + windowBlocksFreed, rejectionCount(), rejections,
                checks != Checks.ALL ? " (host checks only: the audit's rules were not run)" : "",
                seconds(), events / Math.max(seconds(), 1e-9));
    }
}
