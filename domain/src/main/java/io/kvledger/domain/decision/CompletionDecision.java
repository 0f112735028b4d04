package io.kvledger.domain.decision;

import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.TransferAcknowledged;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.TierChunk;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** One worker's completion of a job (contract section 4, Completion). */
final class CompletionDecision {

    private CompletionDecision() {
    }

    static void complete(Emitter emitter, CompleteTransfer command) {
        EngineState state = emitter.state();
        long jobId = command.jobId();
        if (jobId < 0) {
            throw Rejection.invalidArgument("jobId must be >= 0, was " + jobId);
        }
        if (jobId >= state.nextJobId()) {
            throw Rejection.of(RejectionCode.UNKNOWN_JOB, "job " + jobId + " was never scheduled");
        }
        if (jobId < state.staleBelowJobId()) {
            throw Rejection.of(RejectionCode.STALE_JOB, "job " + jobId + " was dropped by a reset (stale below "
                    + state.staleBelowJobId() + ")");
        }
        Job job = state.job(jobId);
        if (job == null) {
            throw Rejection.of(RejectionCode.JOB_ALREADY_COMPLETE, "job " + jobId + " has already ended");
        }
        if (job.completions() + 1 < state.config().workers()) {
            emitter.emit(new TransferAcknowledged(jobId, job.requestId(), command.success()));
            return;
        }
        boolean success = !job.failed() && command.success();
        if (job.isStore()) {
            emitter.emit(new StoreJobCompleted(jobId, job.requestId(), success));
            if (success) {
                emitter.emit(new ChunksStored(job.keys()));
            }
        } else {
            emitter.emit(new LoadJobCompleted(jobId, job.requestId(), success));
            if (!success) {
                dropUnpinned(emitter, job);
            }
        }
        // The owner as the job's end leaves it: the job no longer in flight (what else the end changes, its
        // cursors and status, the release does not read).
        RequestState owner = state.heldRequest(job.requestId());
        if (owner != null) {
            ReleaseDecision.releaseTerminated(emitter, owner.withJobIds(owner.jobIds().remove(jobId)), false);
        }
    }

    /**
     * A failed load drops its chunks, so no bad copy is hit twice, unless another load still pins them: pins
     * counted as the load's end leaves them (one fewer for each time the load names the key).
     */
    private static void dropUnpinned(Emitter emitter, Job job) {
        CpuTier tier = emitter.state().tier();
        List<String> dropped = new ArrayList<>();
        for (String key : job.keys()) {
            TierChunk chunk = tier.chunk(key);
            if (chunk != null && chunk.pins() <= Collections.frequency(job.keys(), key) && !dropped.contains(key)) {
                dropped.add(key);
            }
        }
        if (!dropped.isEmpty()) {
            emitter.emit(new ChunksEvicted(tier.leastRecentFirst(dropped)));
        }
    }
}
