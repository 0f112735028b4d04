package io.kvledger.domain;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.RequestEvent;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.event.TokensRejected;
import io.kvledger.domain.event.TransferAcknowledged;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.PrefixMatch;
import io.kvledger.domain.state.RequestControls;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;

/**
 * {@code evolve(state, event) -> state}: the only way state changes. Live command handling, replay,
 * audit and time travel all use exactly this fold. Events this fold does not know (and
 * {@code FlushRequired}, {@code StoreDeferred}, {@code CommandRejected}, which record answers rather
 * than changes) leave the state as it is.
 *
 * <p>The fold is total: a log written elsewhere may name a request that is unknown or already
 * retired, or a job that never ran. Such parts of an event are skipped rather than thrown on, so
 * that audit can fold any well-typed log and report what is wrong with it.
 */
public final class EngineFold {

    private EngineFold() {
    }

    /** The state after all {@code events}; the first must be {@link EngineConfigured}. */
    public static EngineState fold(Iterable<? extends EngineEvent> events) {
        EngineState state = null;
        for (EngineEvent event : events) {
            state = evolve(state, event);
        }
        return state;
    }

    public static EngineState evolve(EngineState state, EngineEvent event) {
        if (event instanceof EngineConfigured e) {
            return EngineState.initial(e.config());
        }
        if (state == null) {
            throw new IllegalStateException("the first event must be EngineConfigured, was " + event);
        }
        // A decode step's two events per request first (each type is tested once, whatever the order).
        if (event instanceof TokensAppended e) {
            RequestState request = state.heldRequest(e.requestId());
            if (request != null) {
                request.setTokens(e.numTokens(), request.hashes().append(e.tokens()));
                request.setGroupKeys(state.config());
            }
            return state;
        }
        if (event instanceof TokensComputed e) {
            RequestState request = state.heldRequest(e.requestId());
            if (request == null) {
                return state;
            }
            request.setComputed(e.numComputedTokens());
            return RequestFold.afterOfferTrigger(state, request);
        }
        if (event instanceof RequestRegistered e) {
            if (state.isKnown(e.requestId())) {
                return state;
            }
            EngineConfig config = state.config();
            RequestState request = RequestState.registered(e.requestId(), state.registered(), e.promptTokens(),
                    config.hashBlockSize(), config.groupCount())
                    .withControls(RequestControls.ofNullable(e.maxOffloadTokens(), e.maxLoadTokens(), e.skipReadingPrefixCache()));
            request.setGroupKeys(config);
            return state.withRequest(request).withRegistered(state.registered() + 1);
        }
        if (event instanceof LoadJobScheduled e) {
            return JobFold.loadScheduled(state, e);
        }
        if (event instanceof StoreJobScheduled e) {
            return JobFold.storeScheduled(state, e);
        }
        if (event instanceof StoreJobCompleted e) {
            return JobFold.storeCompleted(state, e);
        }
        if (event instanceof LoadJobCompleted e) {
            return JobFold.loadCompleted(state, e);
        }
        if (event instanceof ChunksStored e) {
            return state.withTier(state.tier().ready(e.keys()));
        }
        if (event instanceof ChunksEvicted e) {
            return state.withTier(state.tier().remove(e.keys()));
        }
        if (event instanceof TransferAcknowledged e) {
            Job job = state.job(e.jobId());
            return job == null ? state : state.withJobs(state.jobs().put(e.jobId(), job.acknowledged(e.success())),
                    state.nextJobId());
        }
        RequestState request = event instanceof RequestEvent e ? state.heldRequest(e.requestId()) : null;
        if (event instanceof RequestEvent && request == null) {
            return state; // the rest are about a live request only
        }
        if (event instanceof TokensRejected e) {
            request.setComputed(e.numComputedTokens());
            return state;
        }
        if (event instanceof PrefixMatched e) {
            request.setComputed(e.gpuHitTokens());
            request.setPendingMatch(new PrefixMatch(e.gpuHitTokens(), e.externalTokens(), e.hitChunks()));
            return state.withTier(TableFold.touch(state.tier(), ChunkKeys.of(state.config(), request, e.hitChunks())));
        }
        if (event instanceof PrefixMatchDeferred) {
            request.setPendingMatch(null);
            return state;
        }
        if (event instanceof BlocksAllocated e) {
            return TableFold.allocated(state, request, e);
        }
        if (event instanceof WindowBlocksFreed e) {
            return TableFold.freed(state, request, e);
        }
        if (event instanceof RequestPreempted) {
            if (request.isTerminal()) {
                return state;
            }
            request.setComputed(0);
            request.setStatus(RequestStatus.PREEMPTED);
            request.setPendingMatch(null);
            TableFold.preempted(state.config(), request);
            return state;
        }
        if (event instanceof RequestAborted) {
            return RequestFold.terminated(state, request, RequestStatus.ABORTED);
        }
        if (event instanceof RequestFinished) {
            return RequestFold.terminated(state, request, RequestStatus.FINISHED);
        }
        if (event instanceof BlocksReleased e) {
            return TableFold.released(state, request, e);
        }
        if (event instanceof CacheReset e) {
            return ResetFold.reset(state, e);
        }
        return state;
    }
}
