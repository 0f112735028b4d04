package io.kvledger.domain;

import io.kvledger.containers.StateHashMap;
import io.kvledger.containers.StateTreeMap;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.JobIds;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import java.util.Comparator;
import java.util.List;

/** ResetCache: every job ends as not done, cursors return to 0, the tier is emptied, fences are lifted. */
final class ResetFold {

    private ResetFold() {
    }

    static EngineState reset(EngineState state, CacheReset e) {
        for (RequestState request : state.requests().values()) {
            if (request.status() == RequestStatus.LOADING) {
                Job load = loadOf(state, request); // read before its job ids go
                request.setStatus(RequestStatus.RUNNING);
                request.setComputed(load == null ? request.computed() : load.gpuHitTokens());
            }
            request.setCursor(0, 0);
            TableFold.resetCursors(request);
            request.setJobIds(JobIds.EMPTY);
        }
        EngineState next = state
                .withTier(state.tier().cleared())
                .withJobs(StateTreeMap.empty(), Math.max(state.nextJobId(), e.staleBelowJobId()))
                .withFences(StateHashMap.empty())
                .withStaleBelowJobId(e.staleBelowJobId());
        // Settled in registration order, as the reset's releases come (contract section 4): the order they
        // retire in is the retired requests' order, which decides which one is forgotten first.
        List<RequestState> registered = state.requests().values();
        registered.sort(Comparator.comparingLong(RequestState::ordinal));
        for (RequestState request : registered) {
            next = RequestFold.settle(next, request.requestId());
        }
        return next;
    }

    private static Job loadOf(EngineState state, RequestState request) {
        for (long jobId : request.jobIds()) {
            Job job = state.job(jobId);
            if (job != null && job.isLoad()) {
                return job;
            }
        }
        return null;
    }
}
