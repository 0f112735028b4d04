package io.kvledger.domain;

import io.kvledger.containers.StateHashMap;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.JobIds;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;

/** The parts of the fold that start and end jobs, and the fences they hold. */
final class JobFold {

    private JobFold() {
    }

    static EngineState storeScheduled(EngineState state, StoreJobScheduled e) {
        Job job = Job.store(e.jobId(), e.requestId(), e.chunkIndices().flat(), e.keys().flat(), e.blockIds().flat());
        RequestState request = state.heldRequest(e.requestId());
        if (request == null) {
            // Only a foreign log stores for a request that is not live: keep the job and its writes.
            return state.withTier(state.tier().writing(job.keys()))
                    .withJobs(state.jobs().put(e.jobId(), job), Math.max(state.nextJobId(), e.jobId() + 1));
        }
        return TableFold.storeScheduled(state, request, e, job);
    }

    static EngineState loadScheduled(EngineState state, LoadJobScheduled e) {
        RequestState request = state.heldRequest(e.requestId());
        if (request == null) {
            Job orphan = Job.load(e.jobId(), e.requestId(), e.chunkIndices().flat(), e.keys().flat(), e.blockIds().flat(), 0, 0, 0);
            return state.withTier(state.tier().pin(orphan.keys()))
                    .withJobs(state.jobs().put(e.jobId(), orphan), Math.max(state.nextJobId(), e.jobId() + 1));
        }
        return TableFold.loadScheduled(state, request, e);
    }

    static EngineState storeCompleted(EngineState state, StoreJobCompleted e) {
        Job job = state.job(e.jobId());
        if (job == null) {
            return state;
        }
        EngineState next = endJob(state, job);
        if (!e.success()) {
            // A failed write leaves nothing loadable; no event, and no retry (the cursor has passed).
            next = next.withTier(next.tier().remove(job.keys()));
        }
        return RequestFold.settle(unfence(next, job), job.requestId());
    }

    static EngineState loadCompleted(EngineState state, LoadJobCompleted e) {
        Job job = state.job(e.jobId());
        if (job == null) {
            return state;
        }
        EngineState next = endJob(state, job).withTier(state.tier().unpin(job.keys()));
        RequestState request = next.heldRequest(job.requestId());
        if (request != null) {
            if (e.success()) {
                // The last token is always recomputed, for its logits.
                request.setComputed(Math.min(job.gpuHitTokens() + job.externalTokens(), request.numTokens() - 1));
            } else {
                request.setComputed(job.gpuHitTokens());
                request.setCursor(0, job.cursorBefore());
                if (job.groupCursorsBefore() != null) {
                    TableFold.restoreCursors(request, job);
                }
            }
            if (request.status() == RequestStatus.LOADING) {
                request.setStatus(RequestStatus.RUNNING);
            }
        }
        return RequestFold.settle(next, job.requestId());
    }

    /** Fences the source blocks of a request's stores still in flight, until each store ends. */
    static EngineState fenceStores(EngineState state, RequestState request) {
        if (state.config().releasePolicy() != ReleasePolicy.FENCE) {
            return state;
        }
        EngineState fenced = state;
        for (long jobId : request.jobIds()) {
            Job job = state.job(jobId);
            if (job != null && job.isStore()) {
                fenced = fence(fenced, job);
            }
        }
        return fenced;
    }

    private static EngineState fence(EngineState state, Job job) {
        StateHashMap<Integer, JobIds> fences = state.fences();
        for (Integer block : job.blockIds()) {
            JobIds jobs = fences.getOrElse(block, JobIds.EMPTY);
            fences = fences.put(block, jobs.add(job.jobId()));
        }
        return state.withFences(fences);
    }

    private static EngineState unfence(EngineState state, Job job) {
        StateHashMap<Integer, JobIds> fences = state.fences();
        for (Integer block : job.blockIds()) {
            JobIds jobs = fences.getOrElse(block, null);
            if (jobs != null && jobs.contains(job.jobId())) {
                JobIds left = jobs.remove(job.jobId());
                fences = left.isEmpty() ? fences.remove(block) : fences.put(block, left);
            }
        }
        return fences == state.fences() ? state : state.withFences(fences);
    }

    private static EngineState endJob(EngineState state, Job job) {
        EngineState next = state.withJobs(state.jobs().remove(job.jobId()), state.nextJobId());
        RequestState request = next.heldRequest(job.requestId());
        if (request != null) {
            request.setJobIds(request.jobIds().remove(job.jobId()));
        }
        return next;
    }
}
