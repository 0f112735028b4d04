package io.kvledger.application.replay;

import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.PrefixMatch;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the events of the current command have said so far. A log has no command boundaries, but each
 * command's events start with its own event ({@code TokensComputed}, {@code RequestAborted}, ...) and
 * go on with answers ({@code FlushRequired}, {@code ChunksEvicted}, jobs, {@code ChunksStored},
 * {@code BlocksReleased}) in the order of contract section 4; a {@code FlushRequired} that answers an
 * allocation comes just before its {@code BlocksAllocated}. Read it before {@link #observe} is given
 * the next step.
 */
public final class CommandWindow {

    private final Set<Long> flushedSinceCommand = new HashSet<>();
    private final Set<Long> flushedJustBefore = new HashSet<>();
    private final List<String> evictedSinceCommand = new ArrayList<>();
    private Allocation allocation;
    private JobsAtReset beforeReset;
    /** Read by {@link #before} from the state before the event {@link #observe} takes next. */
    private PrefixMatch stagedMatch;
    private JobsAtReset stagedReset;

    /** The match an allocation used up, kept until the command ends so its load can be checked. */
    public record Allocation(long seq, String requestId, int externalTokens, PrefixMatch match) {
    }

    /**
     * The jobs in flight just before a {@code CacheReset}, copied out of the state before it (the reset ends
     * them all in its own event, and its releases are judged against them).
     *
     * @param jobIdsByRequest each request holding jobs, with its job ids in the request's own order
     * @param jobs            every job in flight, by id
     * @param fences          each fenced block with the store jobs that still read it
     */
    public record JobsAtReset(Map<String, List<Long>> jobIdsByRequest, Map<Long, Job> jobs, Map<Integer, Set<Long>> fences) {

        static JobsAtReset of(EngineState before) {
            Map<Long, Job> jobs = new LinkedHashMap<>();
            Map<String, List<Long>> jobIdsByRequest = new LinkedHashMap<>();
            before.jobs().forEach((jobId, job) -> {
                jobs.put(jobId, job);
                jobIdsByRequest.computeIfAbsent(job.requestId(), requestId -> {
                    RequestState request = before.heldRequest(requestId);
                    List<Long> ids = new ArrayList<>();
                    if (request != null) {
                        request.jobIds().forEach(ids::add);
                    }
                    return List.copyOf(ids);
                });
            });
            Map<Integer, Set<Long>> fences = new HashMap<>();
            before.fences().forEach((block, jobIds) -> fences.put(block, jobIds.toJavaSet()));
            return new JobsAtReset(Map.copyOf(jobIdsByRequest), Map.copyOf(jobs), Map.copyOf(fences));
        }

        /** Whether store job {@code jobId} still read (fenced) {@code block} before the reset. */
        public boolean fences(Integer block, long jobId) {
            Set<Long> fencing = fences.get(block);
            return fencing != null && fencing.contains(jobId);
        }

        /** The request's jobs in flight before the reset, in its own order; empty when it held none. */
        public List<Long> jobIdsOf(String requestId) {
            return jobIdsByRequest.getOrDefault(requestId, List.of());
        }

        /** The job in flight before the reset, or {@code null}. */
        public Job job(long jobId) {
            return jobs.get(jobId);
        }
    }

    /** Whether an event is a command's own event rather than one of its answers. */
    public static boolean opensCommand(EngineEvent event) {
        return !(event instanceof FlushRequired || event instanceof ChunksEvicted || event instanceof StoreDeferred
                || event instanceof StoreJobScheduled || event instanceof LoadJobScheduled
                || event instanceof ChunksStored || event instanceof BlocksReleased);
    }

    /**
     * Reads what {@link #observe} needs of the state before an event, from the step {@link LogFold#prepare}
     * gave, before the event is folded: a state folded in place is not readable once it has moved on.
     */
    public void before(FoldStep pending) {
        EngineEvent event = pending.event();
        stagedMatch = null;
        stagedReset = null;
        if (event instanceof BlocksAllocated e) {
            RequestState request = pending.before().heldRequest(e.requestId());
            stagedMatch = request == null ? null : request.pendingMatch();
        } else if (event instanceof CacheReset) {
            stagedReset = JobsAtReset.of(pending.before());
        }
    }

    /** Takes the event in, after {@link #before} read its state before and it was folded; reads no state. */
    public void observe(FoldStep step) {
        EngineEvent event = step.event();
        if (event == null) {
            return;
        }
        if (opensCommand(event)) {
            flushedSinceCommand.clear();
            evictedSinceCommand.clear();
            allocation = null;
            beforeReset = event instanceof CacheReset ? stagedReset : null;
        }
        if (event instanceof FlushRequired e) {
            flushedSinceCommand.addAll(e.jobIds());
            flushedJustBefore.addAll(e.jobIds());
        } else {
            flushedJustBefore.clear();
        }
        if (event instanceof ChunksEvicted e) {
            evictedSinceCommand.addAll(e.keys());
        }
        if (event instanceof BlocksAllocated e) {
            allocation = new Allocation(step.seq(), e.requestId(), e.externalTokens(), stagedMatch);
        }
    }

    /** Jobs named by a {@code FlushRequired} of the current command (preemption, reset). */
    public boolean flushedInCommand(long jobId) {
        return flushedSinceCommand.contains(jobId);
    }

    /** Jobs named by the {@code FlushRequired} events right before the current event (an allocation's flush). */
    public boolean flushedJustBefore(long jobId) {
        return flushedJustBefore.contains(jobId);
    }

    /**
     * The jobs in flight before the current command's {@code CacheReset}, {@code null} when the command is no
     * reset: the reset ends every job in its own event, so the jobs its releases must not free are known only here.
     */
    public JobsAtReset beforeReset() {
        return beforeReset;
    }

    /** Token-derived keys evicted so far by the current command. */
    public List<String> evictedInCommand() {
        return List.copyOf(evictedSinceCommand);
    }

    /** The current command's allocation, when it is one, with the match it used up. */
    public Allocation allocation() {
        return allocation;
    }
}
