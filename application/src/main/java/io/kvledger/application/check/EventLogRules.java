package io.kvledger.application.check;

import io.kvledger.domain.EngineFold;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.RequestEvent;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.TierChunk;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The rules of contract section 4 that a log shows event by event, judged from the state the domain
 * fold gives before each event: store slices, the token bound and the table, duplicate stores, job ids
 * and job ends, pins, tier capacity, empty releases and flushes before a fenced block is handed out.
 * A subset of {@code kvledger audit} (no release-timing rules), kept in-process for the simulator and
 * the shrinker until the audit of branch {@code log-tools} is merged.
 */
public final class EventLogRules implements LogCheck {

    private EngineState state;
    private long nextJobId;
    private final Set<Long> ended = new HashSet<>();
    private final Map<String, Set<Integer>> storedChunks = new HashMap<>();
    private EngineEvent previous;

    @Override
    public List<LogFinding> check(long seq, EngineEvent event) {
        if (event instanceof EngineConfigured) {
            state = EngineFold.evolve(null, event);
            previous = event;
            return List.of();
        }
        if (state == null) {
            return List.of(new LogFinding(seq, "NOT_CONFIGURED", null, "the first event is not EngineConfigured"));
        }
        Findings findings = new Findings(seq, event);
        before(event, findings);
        EngineState after = EngineFold.evolve(state, event);
        if (after.tier().size() > after.tier().capacity() && after.tier().size() > state.tier().size()) {
            findings.add("TIER_OVER_CAPACITY", "the tier holds " + after.tier().size() + " chunks, capacity "
                    + after.tier().capacity());
        }
        if (event instanceof CacheReset) {
            storedChunks.clear();
        }
        if (event instanceof RequestEvent e && after.liveRequest(e.requestId()) == null) {
            storedChunks.remove(e.requestId()); // retired: no further store of it can come
        }
        state = after;
        previous = event;
        return findings.list;
    }

    /** The state after the last event checked. */
    public EngineState state() {
        return state;
    }

    private void before(EngineEvent event, Findings findings) {
        if (event instanceof StoreJobScheduled store) {
            jobId(store.jobId(), findings);
            StoreSlice.check(state, store, findings);
            Set<Integer> stored = storedChunks.computeIfAbsent(store.requestId(), id -> new HashSet<>());
            for (Integer chunk : store.chunkIndices()) {
                if (!stored.add(chunk)) {
                    findings.add("DUPLICATE_STORE", "chunk " + chunk + " was stored by this request before");
                }
            }
        } else if (event instanceof LoadJobScheduled load) {
            jobId(load.jobId(), findings);
            if (load.keys().size() != load.chunkIndices().size()) {
                findings.add("LOAD_SLICE_MISMATCH", load.keys().size() + " keys for " + load.chunkIndices().size() + " chunks");
            }
        } else if (event instanceof StoreJobCompleted done) {
            jobEnd(done.jobId(), findings);
        } else if (event instanceof LoadJobCompleted done) {
            jobEnd(done.jobId(), findings);
        } else if (event instanceof ChunksEvicted evicted) {
            for (String key : evicted.keys()) {
                TierChunk chunk = state.tier().chunk(key);
                if (chunk != null && chunk.pins() > 0) {
                    findings.add("PINNED_EVICTED", "chunk " + key + " is evicted while " + chunk.pins() + " loads read it");
                }
            }
        } else if (event instanceof BlocksReleased released && released.blockIds().isEmpty()) {
            findings.add("EMPTY_RELEASE", "BlocksReleased names no block");
        } else if (event instanceof BlocksAllocated allocated) {
            flushedBeforeReuse(allocated, findings);
        } else if (event instanceof CacheReset) {
            state.jobs().keySet().forEach(ended::add);
        }
    }

    private void jobId(long jobId, Findings findings) {
        if (jobId != nextJobId) {
            findings.add("JOB_ID_OUT_OF_ORDER", "job " + jobId + " scheduled where job " + nextJobId + " was next");
        }
        nextJobId = Math.max(nextJobId, jobId + 1);
    }

    private void jobEnd(long jobId, Findings findings) {
        if (state.job(jobId) != null) {
            ended.add(jobId);
        } else if (ended.contains(jobId)) {
            findings.add("JOB_COMPLETED_TWICE", "job " + jobId + " has already ended");
        } else {
            findings.add("UNKNOWN_JOB", "job " + jobId + " was never scheduled");
        }
    }

    /** Under FENCE a fenced block may be handed out only right after a FlushRequired naming it and its stores. */
    private void flushedBeforeReuse(BlocksAllocated allocated, Findings findings) {
        if (state.config().releasePolicy() != ReleasePolicy.FENCE || state.fences().isEmpty()) {
            return;
        }
        FlushRequired flush = previous instanceof FlushRequired f ? f : null;
        for (Integer block : allocated.blockIds()) {
            var fencing = state.fences().getOrElse(block, null);
            if (fencing == null || fencing.isEmpty()) {
                continue;
            }
            boolean flushed = flush != null && flush.blockIds().contains(block)
                    && fencing.forAll(job -> flush.jobIds().contains(job));
            if (!flushed) {
                findings.add("REUSE_WITHOUT_FLUSH", "block " + block + " is handed out while stores " + fencing.toJavaList()
                        + " still read it, with no FlushRequired for them");
            }
        }
    }

    /** The findings of one event. */
    static final class Findings {
        private final long seq;
        private final String requestId;
        private final List<LogFinding> list = new ArrayList<>(0);

        Findings(long seq, EngineEvent event) {
            this.seq = seq;
            this.requestId = event instanceof RequestEvent e ? e.requestId() : null;
        }

        void add(String code, String reason) {
            list.add(new LogFinding(seq, code, requestId, reason));
        }
    }
}
