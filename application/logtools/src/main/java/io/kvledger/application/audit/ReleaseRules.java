package io.kvledger.application.audit;

import io.kvledger.application.replay.CommandWindow;
import io.kvledger.application.replay.FoldStep;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;


/**
 * Blocks going back to the host and coming out again (contract section 4, Preemption, Release,
 * ResetCache): RELEASE_WHILE_IN_FLIGHT and REUSE_WITHOUT_FLUSH.
 */
final class ReleaseRules implements AuditRule {

    @Override
    public void check(FoldStep step, CommandWindow window, Findings findings) {
        if (step.event() instanceof BlocksReleased e) {
            release(step.before(), e, window, findings);
        } else if (step.event() instanceof BlocksAllocated e) {
            reuse(step.before(), e, window, findings);
        }
    }

    /**
     * A released block must not be read or written by one of the request's jobs in flight, unless the
     * host was told to wait for that job in this command (a flush) or, under FENCE, the job is a store
     * whose blocks the fold fenced at the request's end. The rule speaks of blocks, not table positions:
     * releasing any copy of an id a job still uses frees that block. A reset ends every job in its own
     * event, so its releases are judged against the jobs in flight before it.
     */
    private static void release(EngineState before, BlocksReleased e, CommandWindow window, Findings findings) {
        CommandWindow.JobsAtReset atReset = window.beforeReset();
        RequestState request = before.heldRequest(e.requestId());
        if (request == null) {
            return;
        }
        Set<Integer> released = null; // made at the first job in flight: most releases have none
        for (long jobId : atReset == null ? request.jobIds() : atReset.jobIdsOf(e.requestId())) {
            Job job = atReset == null ? before.job(jobId) : atReset.job(jobId);
            if (job == null || window.flushedInCommand(jobId)) {
                continue;
            }
            if (released == null) {
                released = new HashSet<>(e.blockIds().flat());
            }
            Set<Integer> busy = new LinkedHashSet<>();
            for (Integer block : job.blockIds()) {
                boolean fenced = atReset == null ? fencedBy(before, block, jobId) : atReset.fences(block, jobId);
                if (released.contains(block) && !fenced) {
                    busy.add(block);
                }
            }
            if (!busy.isEmpty()) {
                String verb = job.isStore() ? "reads" : "writes";
                findings.add(AuditCode.RELEASE_WHILE_IN_FLIGHT, e.requestId(), "blocks " + busy + " are released while "
                        + job.kind().name().toLowerCase() + " job " + jobId + " still " + verb + " them, with no "
                        + "FlushRequired for it in this command" + unfencedNote(before, job, atReset != null));
                return;
            }
        }
    }

    private static String unfencedNote(EngineState before, Job job, boolean atReset) {
        if (atReset) {
            return " (the reset ends it, and the host must wait for it first)";
        }
        if (before.config().releasePolicy() == ReleasePolicy.DELAY_FREE) {
            return " (DELAY_FREE releases only once the request's jobs have ended)";
        }
        return job.isStore() ? " and no fence on them" : " (a load's blocks are released when the load ends)";
    }

    private static boolean fencedBy(EngineState state, Integer block, long jobId) {
        io.kvledger.domain.state.JobIds fencing = state.fences().getOrElse(block, null);
        return fencing != null && fencing.contains(jobId);
    }

    /** Under FENCE, each fenced block handed out needs a flush of its fencing stores just before. */
    private static void reuse(EngineState before, BlocksAllocated e, CommandWindow window, Findings findings) {
        if (before.fences().isEmpty()) {
            return;
        }
        List<Integer> unflushedBlocks = new ArrayList<>();
        Set<Long> unflushedJobs = new TreeSet<>();
        for (Integer block : e.blockIds().flat()) {
            io.kvledger.domain.state.JobIds fencing = before.fences().getOrElse(block, null);
            if (fencing == null) {
                continue;
            }
            for (Long jobId : fencing) {
                if (!window.flushedJustBefore(jobId)) {
                    unflushedBlocks.add(block);
                    unflushedJobs.add(jobId);
                }
            }
        }
        if (!unflushedBlocks.isEmpty()) {
            findings.add(AuditCode.REUSE_WITHOUT_FLUSH, e.requestId(), "blocks " + new LinkedHashSet<>(unflushedBlocks)
                    + " are handed out while store jobs " + unflushedJobs + " still read them (fenced), with no "
                    + "FlushRequired for those jobs just before");
        }
    }
}
