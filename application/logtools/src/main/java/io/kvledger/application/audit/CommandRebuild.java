package io.kvledger.application.audit;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.FreeWindowBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.command.ResetCache;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.event.TokensRejected;
import io.kvledger.domain.event.TransferAcknowledged;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;

/**
 * The command a command's own event records (contract section 3): every such event carries what its
 * command said, so the audit can put the command to the domain's own {@code Decider} and compare what the
 * rules derive with what the log shows.
 */
final class CommandRebuild {

    private CommandRebuild() {
    }

    /**
     * @return the command, or {@code null} when the event records none the audit re-derives (a
     *         {@code CommandRejected}, which changes nothing, or an answer event with no command before it)
     * @throws TokenCountMismatch when a token count does not move {@code c} the way its event must
     */
    static EngineCommand of(EngineEvent opener, EngineState before) {
        if (opener instanceof RequestRegistered e) {
            return new RegisterRequest(e.requestId(), e.promptTokens(), e.maxOffloadTokens(), e.maxLoadTokens(),
                    e.skipReadingPrefixCache());
        } else if (opener instanceof PrefixMatched e) {
            return new MatchPrefix(e.requestId(), e.gpuHitTokens());
        } else if (opener instanceof PrefixMatchDeferred e) {
            return new MatchPrefix(e.requestId(), e.gpuHitTokens());
        } else if (opener instanceof BlocksAllocated e) {
            return new AllocateBlocks(e.requestId(), e.blockIds(), e.externalTokens());
        } else if (opener instanceof TokensComputed e) {
            int computed = computed(before, e.requestId());
            if (computed >= 0 && e.numComputedTokens() <= computed) {
                throw new TokenCountMismatch("TokensComputed sets c=" + e.numComputedTokens() + ", which does not raise c="
                        + computed + " (ComputeTokens schedules at least one token)");
            }
            return new ComputeTokens(e.requestId(), Math.max(1, e.numComputedTokens() - Math.max(0, computed)));
        } else if (opener instanceof TokensRejected e) {
            int computed = computed(before, e.requestId());
            if (computed >= 0 && e.numComputedTokens() >= computed) {
                throw new TokenCountMismatch("TokensRejected sets c=" + e.numComputedTokens() + ", which does not lower c="
                        + computed + " (RejectTokens takes back at least one token)");
            }
            return new RejectTokens(e.requestId(), Math.max(1, Math.max(0, computed) - e.numComputedTokens()));
        } else if (opener instanceof TokensAppended e) {
            return new AppendTokens(e.requestId(), e.tokens());
        } else if (opener instanceof StoreJobCompleted e) {
            return new CompleteTransfer(e.jobId(), e.success());
        } else if (opener instanceof LoadJobCompleted e) {
            return new CompleteTransfer(e.jobId(), e.success());
        } else if (opener instanceof TransferAcknowledged e) {
            return new CompleteTransfer(e.jobId(), e.success());
        } else if (opener instanceof RequestPreempted e) {
            return new PreemptRequest(e.requestId());
        } else if (opener instanceof RequestAborted e) {
            return new AbortRequest(e.requestId());
        } else if (opener instanceof RequestFinished e) {
            return new FinishRequest(e.requestId(), e.reason());
        } else if (opener instanceof WindowBlocksFreed e) {
            return new FreeWindowBlocks(e.requestId(), e.blockIds());
        } else if (opener instanceof CacheReset) {
            return new ResetCache();
        }
        return null;
    }

    /** Whether a command of this event offers chunks {@code s .. S-1} of {@code requestId} to the tier. */
    static boolean triggersOffer(EngineEvent opener, String requestId) {
        return (opener instanceof TokensComputed e && e.requestId().equals(requestId))
                || (opener instanceof RequestAborted a && a.requestId().equals(requestId))
                || (opener instanceof RequestFinished f && f.requestId().equals(requestId));
    }

    private static int computed(EngineState before, String requestId) {
        RequestState request = before.liveRequest(requestId);
        return request == null ? -1 : request.computed();
    }

    /** A token count its event contradicts: {@code STATE_MISMATCH} at the command's own event. */
    static final class TokenCountMismatch extends RuntimeException {
        TokenCountMismatch(String message) {
            super(message, null, false, false);
        }
    }
}
