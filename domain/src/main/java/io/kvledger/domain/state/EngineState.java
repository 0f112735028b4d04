package io.kvledger.domain.state;

import io.kvledger.domain.config.EngineConfig;
import java.util.Optional;
import org.pcollections.HashTreePMap;
import org.pcollections.PMap;
import org.pcollections.PSortedMap;
import org.pcollections.PSortedSet;
import org.pcollections.TreePMap;

/**
 * Everything the engine knows, folded from its events. Each piece has one home: requests (live, or
 * terminated with blocks or jobs still outstanding), the ids of settled terminated requests, the CPU
 * tier, the jobs in flight and the fences that span requests.
 *
 * @param requests        live requests and terminated ones not yet settled
 * @param retired         settled terminated requests (no jobs, no blocks): only their final status is kept,
 *                        so memory follows live requests rather than history
 * @param registered      requests registered so far (the next ordinal)
 * @param jobs            jobs in flight by id
 * @param nextJobId       the id the next job gets
 * @param staleBelowJobId completions of jobs below it arrive after a reset and are stale
 * @param fences          GPU block id to the store jobs that still read it after its request ended
 */
public record EngineState(EngineConfig config, PMap<String, RequestState> requests,
                          PMap<String, RequestStatus> retired, long registered, CpuTier tier,
                          PSortedMap<Long, Job> jobs, long nextJobId, long staleBelowJobId,
                          PMap<Integer, PSortedSet<Long>> fences) {

    public static EngineState initial(EngineConfig config) {
        return new EngineState(config, HashTreePMap.empty(), HashTreePMap.empty(), 0,
                CpuTier.empty(config.cpuCapacityChunks()), TreePMap.empty(), 0, 0, HashTreePMap.empty());
    }

    public Optional<RequestState> request(String requestId) {
        return Optional.ofNullable(requests.get(requestId));
    }

    public boolean isKnown(String requestId) {
        return requests.containsKey(requestId) || retired.containsKey(requestId);
    }

    public boolean isTerminated(String requestId) {
        RequestState request = requests.get(requestId);
        return request != null ? request.isTerminal() : retired.containsKey(requestId);
    }

    /** The status of a known request, live or retired; {@code null} when unknown. */
    public RequestStatus statusOf(String requestId) {
        RequestState request = requests.get(requestId);
        return request != null ? request.status() : retired.get(requestId);
    }

    public EngineState withRequest(RequestState request) {
        return new EngineState(config, requests.plus(request.requestId(), request), retired, registered, tier, jobs,
                nextJobId, staleBelowJobId, fences);
    }

    public EngineState withRequests(PMap<String, RequestState> value) {
        return new EngineState(config, value, retired, registered, tier, jobs, nextJobId, staleBelowJobId, fences);
    }

    public EngineState withRegistered(long value) {
        return new EngineState(config, requests, retired, value, tier, jobs, nextJobId, staleBelowJobId, fences);
    }

    public EngineState withTier(CpuTier value) {
        return new EngineState(config, requests, retired, registered, value, jobs, nextJobId, staleBelowJobId, fences);
    }

    public EngineState withJobs(PSortedMap<Long, Job> value, long newNextJobId) {
        return new EngineState(config, requests, retired, registered, tier, value, newNextJobId, staleBelowJobId,
                fences);
    }

    public EngineState withFences(PMap<Integer, PSortedSet<Long>> value) {
        return new EngineState(config, requests, retired, registered, tier, jobs, nextJobId, staleBelowJobId, value);
    }

    public EngineState withStaleBelowJobId(long value) {
        return new EngineState(config, requests, retired, registered, tier, jobs, nextJobId, value, fences);
    }

    /** Moves a terminated request with nothing outstanding out of the live map. */
    public EngineState retire(RequestState request) {
        return new EngineState(config, requests.minus(request.requestId()),
                retired.plus(request.requestId(), request.status()), registered, tier, jobs, nextJobId,
                staleBelowJobId, fences);
    }
}
