package io.kvledger.domain.state;

import io.kvledger.containers.StateHashMap;
import io.kvledger.containers.StateMap;
import io.kvledger.containers.StateTreeMap;
import io.kvledger.domain.config.EngineConfig;
import java.util.Optional;

/**
 * Everything the engine knows, folded from its events. Each piece has one home: requests (live, or
 * terminated with blocks or jobs still outstanding), the ids of settled terminated requests, the CPU
 * tier, the jobs in flight and the fences that span requests.
 *
 * <p>Changed in place by its one owner, the thread that folds events into it ({@code io.kvledger.domain.*Fold}):
 * its maps ({@link StateMap}), tier ({@link CpuTier}), retired requests and the requests it holds change in place,
 * and a state folded from this one shares them, so this one then reads as the new one does (but for its plain
 * numbers). Nothing keeps an older state readable: a reader that looks back (the audit, {@code replay --at},
 * explain) re-folds from a {@link #copy()} or from the start, and a reader holds a request only until the next
 * fold. {@code decide} only reads it. The jobs and fences held are immutable values.
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
 *                        sliding-window groups) after its request freed it (their ids ascending, never empty)
 * @param windowHolds     with groups: GPU block id to how many sliding-window table entries hold it (contract
 *                        section 7.3, blocks still held); {@code null} for an engine without groups
 */
public record EngineState(EngineConfig config, StateHashMap<String, RequestState> requests,
                          RetiredRequests retired, long registered, CpuTier tier,
                          StateTreeMap<Long, Job> jobs, long nextJobId, long staleBelowJobId,
                          StateHashMap<Integer, JobIds> fences, StateHashMap<Integer, Integer> windowHolds) {

    public EngineState(EngineConfig config, StateHashMap<String, RequestState> requests, RetiredRequests retired,
                       long registered, CpuTier tier, StateTreeMap<Long, Job> jobs, long nextJobId, long staleBelowJobId,
                       StateHashMap<Integer, JobIds> fences) {
        this(config, requests, retired, registered, tier, jobs, nextJobId, staleBelowJobId, fences,
                config.isGrouped() ? StateHashMap.empty() : null);
    }

    public static EngineState initial(EngineConfig config) {
        return new EngineState(config, StateHashMap.empty(), RetiredRequests.empty(), 0,
                CpuTier.empty(config.cpuCapacityChunks()), StateTreeMap.empty(), 0, 0, StateHashMap.empty());
    }

    /**
     * A state of its own, equal to this one: folding either afterwards leaves the other as it was. Copies every
     * container (requests, jobs, fences, window holds, the tier's chunks and order, the retired statuses) and every
     * request (13 fields each): one table entry per request, job, fenced or held block, chunk and retired request
     * (at most {@link RetiredRequests#CAPACITY}), so about as much as a snapshot's encoding costs, without its
     * text. The values in them (a request's tables and hashes, jobs, chunks) are immutable and shared; a request's
     * block tables and hashes grow by appending in place to arrays the two states share (a version appends in
     * place only where no other has), so fold the two on one thread, or one at a time, never both at once.
     */
    public EngineState copy() {
        return new EngineState(config, requests.copy(RequestState::copy), retired.copy(), registered, tier.copy(), jobs.copy(), nextJobId,
                staleBelowJobId, fences.copy(), windowHolds == null ? null : windowHolds.copy());
    }

    /** Whether a sliding-window table entry holds {@code block}. */
    public int windowHolders(Integer block) {
        return windowHolds == null ? 0 : windowHolds.getOrElse(block, 0);
    }

    public EngineState withWindowHolds(StateHashMap<Integer, Integer> value) {
        if (value == windowHolds) {
            return this; // the same map, changed in place: nothing to make
        }
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

    /** The state holding {@code request} under its id (a new one, or a rule's copy in a state of its own). */
    public EngineState withRequest(RequestState request) {
        return new EngineState(config, requests.put(request.requestId(), request), retired, registered, tier, jobs,
                nextJobId, staleBelowJobId, fences, windowHolds);
    }

    public EngineState withRequests(StateHashMap<String, RequestState> value) {
        if (value == requests) {
            return this;
        }
        return new EngineState(config, value, retired, registered, tier, jobs, nextJobId, staleBelowJobId, fences, windowHolds);
    }

    public EngineState withRegistered(long value) {
        return new EngineState(config, requests, retired, value, tier, jobs, nextJobId, staleBelowJobId, fences, windowHolds);
    }

    public EngineState withTier(CpuTier value) {
        if (value == tier) {
            return this; // the tier changes in place: a change of it is the same tier
        }
        return new EngineState(config, requests, retired, registered, value, jobs, nextJobId, staleBelowJobId, fences, windowHolds);
    }

    public EngineState withJobs(StateTreeMap<Long, Job> value, long newNextJobId) {
        return new EngineState(config, requests, retired, registered, tier, value, newNextJobId, staleBelowJobId,
                fences, windowHolds);
    }

    public EngineState withFences(StateHashMap<Integer, JobIds> value) {
        if (value == fences) {
            return this;
        }
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
