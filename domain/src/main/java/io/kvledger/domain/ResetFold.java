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
        StateHashMap<String, RequestState> requests = state.requests();
        for (RequestState request : state.requests().values()) {
            RequestState next = TableFold.resetCursors(request.withCursor(0).withJobIds(JobIds.EMPTY));
            if (request.status() == RequestStatus.LOADING) {
                Job load = loadOf(state, request);
                next = next.withStatus(RequestStatus.RUNNING)
                        .withComputed(load == null ? request.computed() : load.gpuHitTokens());
            }
            requests = requests.put(request.requestId(), next);
        }
        EngineState next = state.withRequests(requests)
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
