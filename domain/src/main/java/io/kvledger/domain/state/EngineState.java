package io.kvledger.domain.state;

import io.kvledger.domain.config.EngineConfig;
import io.vavr.collection.TreeSet;
import java.util.Optional;

/**
 * Everything the engine knows, folded from its events. Each piece has one home: requests (live, or
 * terminated with blocks or jobs still outstanding), the ids of settled terminated requests, the CPU
 * tier, the jobs in flight and the fences that span requests.
 *
 * <p>A value, yet its maps change in place on the forward path ({@link VersionedMap}, {@link CpuTier}): a
 * state folded from this one leaves this one reading as it was, through undos.
 *
 * @param requests        live requests and terminated ones not yet settled
 * @param retired         settled terminated requests (no jobs, no blocks): only their final status is kept,
 *                        for the {@link RetiredRequests#CAPACITY} retired last, so memory follows live
 *                        requests rather than history
 * @param registered      requests registered so far (the next ordinal)
 * @param jobs            jobs in flight by id
 * @param nextJobId       the id the next job gets
 * @param staleBelowJobId completions of jobs below it arrive after a reset and are stale
 * @param fences          GPU block id to the store jobs that still read it after its request ended, or (with
 *                        sliding-window groups) after its request freed it
 * @param windowHolds     with groups: GPU block id to how many sliding-window table entries hold it (contract
 *                        section 7.3, blocks still held); {@code null} for an engine without groups
 */
public record EngineState(EngineConfig config, VersionedHashMap<String, RequestState> requests,
                          RetiredRequests retired, long registered, CpuTier tier,
                          VersionedTreeMap<Long, Job> jobs, long nextJobId, long staleBelowJobId,
                          VersionedHashMap<Integer, TreeSet<Long>> fences, VersionedHashMap<Integer, Integer> windowHolds) {

    public EngineState(EngineConfig config, VersionedHashMap<String, RequestState> requests, RetiredRequests retired,
                       long registered, CpuTier tier, VersionedTreeMap<Long, Job> jobs, long nextJobId, long staleBelowJobId,
                       VersionedHashMap<Integer, TreeSet<Long>> fences) {
        this(config, requests, retired, registered, tier, jobs, nextJobId, staleBelowJobId, fences,
                config.isGrouped() ? VersionedHashMap.empty() : null);
    }

    public static EngineState initial(EngineConfig config) {
        return new EngineState(config, VersionedHashMap.empty(), RetiredRequests.empty(), 0,
                CpuTier.empty(config.cpuCapacityChunks()), VersionedTreeMap.empty(), 0, 0, VersionedHashMap.empty());
    }

    /** Whether a sliding-window table entry holds {@code block}. */
    public int windowHolders(Integer block) {
        return windowHolds == null ? 0 : windowHolds.getOrElse(block, 0);
    }

    public EngineState withWindowHolds(VersionedHashMap<Integer, Integer> value) {
        return new EngineState(config, requests, retired, registered, tier, jobs, nextJobId, staleBelowJobId, fences,
                value);
    }

    public Optional<RequestState> request(String requestId) {
        return Optional.ofNullable(requests.getOrElse(requestId, null));
    }

    /**
     * The request the engine still holds: live, or terminated with jobs or blocks not settled yet; {@code
     * null} once it is retired or when it was never registered. (The decider's {@code requireLive} is
     * the one that refuses terminated requests.)
     */
    public RequestState heldRequest(String requestId) {
        return requests.getOrElse(requestId, null);
    }

    /** @deprecated the name hid that it returns terminated requests too: use {@link #heldRequest}. */
    @Deprecated(forRemoval = true)
    public RequestState liveRequest(String requestId) {
        return heldRequest(requestId);
    }

    /** The job in flight, or {@code null}. */
    public Job job(long jobId) {
        return jobs.getOrElse(jobId, null);
    }

    public boolean isKnown(String requestId) {
        return requests.containsKey(requestId) || retired.containsKey(requestId);
    }

    public boolean isTerminated(String requestId) {
        RequestState request = heldRequest(requestId);
        return request != null ? request.isTerminal() : retired.containsKey(requestId);
    }

    /** The status of a known request, live or retired; {@code null} when unknown. */
    public RequestStatus statusOf(String requestId) {
        RequestState request = heldRequest(requestId);
        return request != null ? request.status() : retired.getOrElse(requestId, null);
    }

    public EngineState withRequest(RequestState request) {
        return new EngineState(config, requests.put(request.requestId(), request), retired, registered, tier, jobs,
                nextJobId, staleBelowJobId, fences, windowHolds);
    }

    public EngineState withRequests(VersionedHashMap<String, RequestState> value) {
        return new EngineState(config, value, retired, registered, tier, jobs, nextJobId, staleBelowJobId, fences, windowHolds);
    }

    public EngineState withRegistered(long value) {
        return new EngineState(config, requests, retired, value, tier, jobs, nextJobId, staleBelowJobId, fences, windowHolds);
    }

    public EngineState withTier(CpuTier value) {
        return new EngineState(config, requests, retired, registered, value, jobs, nextJobId, staleBelowJobId, fences, windowHolds);
    }

    public EngineState withJobs(VersionedTreeMap<Long, Job> value, long newNextJobId) {
        return new EngineState(config, requests, retired, registered, tier, value, newNextJobId, staleBelowJobId,
                fences, windowHolds);
    }

    public EngineState withFences(VersionedHashMap<Integer, TreeSet<Long>> value) {
        return new EngineState(config, requests, retired, registered, tier, jobs, nextJobId, staleBelowJobId, value, windowHolds);
    }

    /** The same state remembering retired requests in {@code value} (a smaller bound, in tests). */
    public EngineState withRetired(RetiredRequests value) {
        return new EngineState(config, requests, value, registered, tier, jobs, nextJobId, staleBelowJobId, fences, windowHolds);
    }

    public EngineState withStaleBelowJobId(long value) {
        return new EngineState(config, requests, retired, registered, tier, jobs, nextJobId, value, fences, windowHolds);
    }

    /** Moves a terminated request with nothing outstanding out of the live map. */
    public EngineState retire(RequestState request) {
        return new EngineState(config, requests.remove(request.requestId()),
                retired.retire(request.requestId(), request.status()), registered, tier, jobs, nextJobId,
                staleBelowJobId, fences, windowHolds);
    }
}
