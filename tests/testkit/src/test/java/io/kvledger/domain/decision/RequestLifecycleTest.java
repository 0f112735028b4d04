package io.kvledger.domain.decision;

import static io.kvledger.domain.decision.EngineFixtures.A8;
import static io.kvledger.domain.decision.EngineFixtures.B4;
import static io.kvledger.domain.decision.EngineFixtures.bLoadingFromA;
import static io.kvledger.domain.decision.EngineFixtures.computed;
import static io.kvledger.domain.decision.EngineFixtures.configured;
import static io.kvledger.domain.decision.EngineFixtures.history;
import static io.kvledger.domain.decision.EngineFixtures.keys;
import static io.kvledger.domain.decision.EngineFixtures.matched;
import static io.kvledger.domain.decision.EngineFixtures.registered;
import static io.kvledger.domain.decision.EngineFixtures.rejected;
import static io.kvledger.domain.decision.EngineFixtures.running;
import static io.kvledger.domain.event.RejectionCode.DUPLICATE_REQUEST;
import static io.kvledger.domain.event.RejectionCode.INVALID_STATE;
import static io.kvledger.domain.event.RejectionCode.REQUEST_TERMINATED;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.testkit.LedgerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Contract section 4, Request states: which command each state accepts, and the terminal rules. */
class RequestLifecycleTest {

    /** r: RUNNING with blocks 1, 2 and nothing computed. */
    private static List<EngineEvent> runningR() {
        return history(configured(B4), running("r", A8, 1, 2));
    }

    /** r: PREEMPTED, its table released, nothing in flight. */
    private static List<EngineEvent> preemptedR() {
        return history(runningR(), new RequestPreempted("r"), new BlocksReleased("r", List.of(1, 2)));
    }

    @Test
    void registerRequestRecordsThePromptAndItsLength() {
        LedgerFixture.with(B4)
                .when(new RegisterRequest("r", A8))
                .thenEvents(registered("r", A8));
    }

    @Test
    void matchPrefixIsAcceptedInWaiting() {
        LedgerFixture.with(B4).given(registered("r", A8))
                .when(new MatchPrefix("r"))
                .thenEvents(new PrefixMatched("r", 0, 0, List.of()));
    }

    @Test
    void matchPrefixIsAcceptedInPreempted() {
        LedgerFixture.fromHistory(preemptedR())
                .when(new MatchPrefix("r"))
                .thenEvents(new PrefixMatched("r", 0, 0, List.of()));
    }

    @Test
    void matchPrefixIsInvalidStateWhileRunning() {
        LedgerFixture.fromHistory(runningR())
                .when(new MatchPrefix("r"))
                .thenEvents(rejected(1, "MatchPrefix", INVALID_STATE, "r"));
    }

    @Test
    void matchPrefixIsInvalidStateWhileLoading() {
        LedgerFixture.with(B4).given(bLoadingFromA())
                .when(new MatchPrefix("b"))
                .thenEvents(rejected(1, "MatchPrefix", INVALID_STATE, "b"));
    }

    @Test
    void allocateBlocksInWaitingMakesTheRequestRunning() {
        LedgerFixture.with(B4).given(registered("r", A8))
                .when(new AllocateBlocks("r", List.of(1, 2)), new ComputeTokens("r", 4))
                .thenEvents(new BlocksAllocated("r", List.of(1, 2), 0), new TokensComputed("r", 4),
                        new StoreJobScheduled(0, "r", List.of(0), keys(A8, 0), List.of(1)));
    }

    @Test
    void allocateBlocksWhileRunningAppendsToTheTable() {
        LedgerFixture.with(B4).given(history(running("r", A8, 1), computed("r", 4),
                        new StoreJobScheduled(0, "r", List.of(0), keys(A8, 0), List.of(1))))
                .when(new AllocateBlocks("r", List.of(2)), new ComputeTokens("r", 4))
                .thenEvents(new BlocksAllocated("r", List.of(2), 0), new TokensComputed("r", 8),
                        new StoreJobScheduled(1, "r", List.of(1), keys(A8, 1), List.of(2)));
    }

    @Test
    void allocateBlocksInPreemptedMakesTheRequestRunningAgain() {
        LedgerFixture.fromHistory(preemptedR())
                .when(new AllocateBlocks("r", List.of(3, 4)), new ComputeTokens("r", 4))
                .thenEvents(new BlocksAllocated("r", List.of(3, 4), 0), new TokensComputed("r", 4),
                        new StoreJobScheduled(0, "r", List.of(0), keys(A8, 0), List.of(3)));
    }

    @Test
    void allocateBlocksIsInvalidStateWhileLoading() {
        LedgerFixture.with(B4).given(bLoadingFromA())
                .when(new AllocateBlocks("b", List.of(8)))
                .thenEvents(rejected(1, "AllocateBlocks", INVALID_STATE, "b"));
    }

    @Test
    void computeTokensIsInvalidStateInWaiting() {
        LedgerFixture.with(B4).given(registered("r", A8), matched("r"))
                .when(new ComputeTokens("r", 4))
                .thenEvents(rejected(1, "ComputeTokens", INVALID_STATE, "r"));
    }

    @Test
    void computeTokensIsInvalidStateInPreempted() {
        LedgerFixture.fromHistory(preemptedR())
                .when(new ComputeTokens("r", 4))
                .thenEvents(rejected(1, "ComputeTokens", INVALID_STATE, "r"));
    }

    @Test
    void computeTokensIsInvalidStateWhileLoading() {
        LedgerFixture.with(B4).given(bLoadingFromA())
                .when(new ComputeTokens("b", 2))
                .thenEvents(rejected(1, "ComputeTokens", INVALID_STATE, "b"));
    }

    @Test
    void rejectTokensIsInvalidStateOutsideRunning() {
        // A GPU hit of all 8 tokens makes c = 8, so taking back 1 stays on the floor n - 1 = 7.
        LedgerFixture.with(B4).given(registered("r", A8), new PrefixMatched("r", 8, 0, List.of()))
                .when(new RejectTokens("r", 1))
                .thenEvents(rejected(1, "RejectTokens", INVALID_STATE, "r"));
    }

    @Test
    void preemptRequestIsInvalidStateInWaitingPreemptedAndLoading() {
        LedgerFixture.with(B4).given(history(registered("w", A8), running("p", A8, 3),
                        new RequestPreempted("p"), new BlocksReleased("p", List.of(3)), bLoadingFromA()))
                .when(new PreemptRequest("w"), new PreemptRequest("p"), new PreemptRequest("b"))
                .thenEvents(rejected(1, "PreemptRequest", INVALID_STATE, "w"),
                        rejected(2, "PreemptRequest", INVALID_STATE, "p"),
                        rejected(3, "PreemptRequest", INVALID_STATE, "b"));
    }

    @Test
    void appendTokensIsAcceptedInWaitingPreemptedAndLoading() {
        LedgerFixture.with(B4).given(history(registered("w", A8), running("p", A8, 3),
                        new RequestPreempted("p"), new BlocksReleased("p", List.of(3)), bLoadingFromA()))
                .when(new AppendTokens("w", List.of(9)), new AppendTokens("p", List.of(9)),
                        new AppendTokens("b", List.of(11)))
                .thenEvents(new TokensAppended("w", 9, List.of(9)), new TokensAppended("p", 9, List.of(9)),
                        new TokensAppended("b", 11, List.of(11)));
    }

    @Test
    void abortRequestIsAcceptedInWaitingAndStoresNothing() {
        LedgerFixture.with(B4).given(registered("q", A8), matched("q"))
                .when(new AbortRequest("q"))
                .thenEvents(new RequestAborted("q"));
    }

    @Test
    void finishRequestIsInvalidStateWhileLoading() {
        LedgerFixture.with(B4).given(bLoadingFromA())
                .when(new FinishRequest("b", FinishReason.STOPPED))
                .thenEvents(rejected(1, "FinishRequest", INVALID_STATE, "b"));
    }

    @Test
    void finishRequestIsAcceptedInWaiting() {
        LedgerFixture.with(B4).given(registered("w", A8), matched("w"))
                .when(new FinishRequest("w", FinishReason.STOPPED))
                .thenEvents(new RequestFinished("w", FinishReason.STOPPED));
    }

    @Test
    void finishRequestIsAcceptedInPreempted() {
        LedgerFixture.fromHistory(preemptedR())
                .when(new FinishRequest("r", FinishReason.LENGTH))
                .thenEvents(new RequestFinished("r", FinishReason.LENGTH));
    }

    @Test
    void abortRequestIsAcceptedInPreempted() {
        LedgerFixture.fromHistory(preemptedR())
                .when(new AbortRequest("r"))
                .thenEvents(new RequestAborted("r"));
    }

    @Test
    void abortRequestIsAcceptedWhileRunningWithAnEmptyTable() {
        LedgerFixture.with(B4).given(registered("r", A8), matched("r"), new BlocksAllocated("r", List.of(), 0))
                .when(new AbortRequest("r"))
                .thenEvents(new RequestAborted("r"));
    }

    @Test
    void afterAbortEveryCommandOfTheRequestIsRequestTerminated() {
        LedgerFixture.with(B4).given(registered("r", A8), matched("r"), new RequestAborted("r"))
                .when(new MatchPrefix("r"), new AllocateBlocks("r", List.of(1)), new ComputeTokens("r", 4),
                        new RejectTokens("r", 1), new AppendTokens("r", List.of(9)), new PreemptRequest("r"),
                        new AbortRequest("r"), new FinishRequest("r", FinishReason.STOPPED))
                .thenEvents(rejected(1, "MatchPrefix", REQUEST_TERMINATED, "r"),
                        rejected(2, "AllocateBlocks", REQUEST_TERMINATED, "r"),
                        rejected(3, "ComputeTokens", REQUEST_TERMINATED, "r"),
                        rejected(4, "RejectTokens", REQUEST_TERMINATED, "r"),
                        rejected(5, "AppendTokens", REQUEST_TERMINATED, "r"),
                        rejected(6, "PreemptRequest", REQUEST_TERMINATED, "r"),
                        rejected(7, "AbortRequest", REQUEST_TERMINATED, "r"),
                        rejected(8, "FinishRequest", REQUEST_TERMINATED, "r"));
    }

    @Test
    void afterFinishASecondFinishOrAbortChangesNothing() {
        // The finished request still has its store in flight (so it is not settled yet).
        LedgerFixture.fromHistory(history(runningR(), computed("r", 8),
                        new StoreJobScheduled(0, "r", List.of(0, 1), keys(A8, 0, 1), List.of(1, 2)),
                        new RequestFinished("r", FinishReason.STOPPED), new BlocksReleased("r", List.of(1, 2))))
                .when(new FinishRequest("r", FinishReason.LENGTH), new AbortRequest("r"),
                        new ComputeTokens("r", 1))
                .thenEvents(rejected(1, "FinishRequest", REQUEST_TERMINATED, "r"),
                        rejected(2, "AbortRequest", REQUEST_TERMINATED, "r"),
                        rejected(3, "ComputeTokens", REQUEST_TERMINATED, "r"));
    }

    @Test
    void registerRequestOfALiveIdIsDuplicateRequest() {
        LedgerFixture.with(B4).given(registered("r", A8))
                .when(new RegisterRequest("r", List.of(5)))
                .thenEvents(rejected(1, "RegisterRequest", DUPLICATE_REQUEST, "r"));
    }

    @Test
    void registerRequestOfATerminatedIdIsDuplicateRequest() {
        LedgerFixture.with(B4).given(registered("r", A8), new RequestAborted("r"))
                .when(new RegisterRequest("r", A8))
                .thenEvents(rejected(1, "RegisterRequest", DUPLICATE_REQUEST, "r"));
    }

    @Test
    void completionsOfATerminatedRequestsJobsAreStillAccepted() {
        LedgerFixture.fromHistory(history(runningR(), computed("r", 8),
                        new StoreJobScheduled(0, "r", List.of(0, 1), keys(A8, 0, 1), List.of(1, 2)),
                        new RequestAborted("r"), new BlocksReleased("r", List.of(1, 2))))
                .when(new CompleteTransfer(0))
                .thenEvents(new StoreJobCompleted(0, "r", true), new ChunksStored(keys(A8, 0, 1)));
    }

    @Test
    void theEndOfALoadMakesTheRequestRunning() {
        LedgerFixture.with(B4).given(bLoadingFromA())
                .when(new CompleteTransfer(1), new ComputeTokens("b", 2))
                .thenEvents(new LoadJobCompleted(1, "b", true), new TokensComputed("b", 10));
    }
}
