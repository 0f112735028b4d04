package io.kvledger.application.engine;

import static io.kvledger.application.engine.EngineFixtures.A8;
import static io.kvledger.application.engine.EngineFixtures.B4;
import static io.kvledger.application.engine.EngineFixtures.bLoadingFromA;
import static io.kvledger.application.engine.EngineFixtures.computed;
import static io.kvledger.application.engine.EngineFixtures.configured;
import static io.kvledger.application.engine.EngineFixtures.exactly;
import static io.kvledger.application.engine.EngineFixtures.history;
import static io.kvledger.application.engine.EngineFixtures.keys;
import static io.kvledger.application.engine.EngineFixtures.matched;
import static io.kvledger.application.engine.EngineFixtures.newFixture;
import static io.kvledger.application.engine.EngineFixtures.registered;
import static io.kvledger.application.engine.EngineFixtures.rejected;
import static io.kvledger.application.engine.EngineFixtures.running;
import static io.kvledger.application.engine.EngineFixtures.step;
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
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TokensComputed;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Contract section 4, Request states: which command each state accepts, and the terminal rules. */
class RequestLifecycleTest {

    private RuleFixture fixture;

    @BeforeEach
    void setUp() {
        fixture = newFixture();
    }

    /** r: RUNNING with blocks 1, 2 and nothing computed. */
    private static List<Object> runningR() {
        return history(configured(B4), running("r", A8, 1, 2));
    }

    /** r: PREEMPTED, its table released, nothing in flight. */
    private static List<Object> preemptedR() {
        return history(runningR(), new RequestPreempted("r"), new BlocksReleased("r", List.of(1, 2)));
    }

    @Test
    void registerRequestRecordsThePromptAndItsLength() {
        fixture.given(configured(B4))
                .when(step(new RegisterRequest("r", A8)))
                .expectEventsMatching(exactly(registered("r", A8)));
    }

    @Test
    void matchPrefixIsAcceptedInWaiting() {
        fixture.given(configured(B4), registered("r", A8))
                .when(step(new MatchPrefix("r")))
                .expectEventsMatching(exactly(new PrefixMatched("r", 0, 0, List.of())));
    }

    @Test
    void matchPrefixIsAcceptedInPreempted() {
        fixture.given(preemptedR())
                .when(step(new MatchPrefix("r")))
                .expectEventsMatching(exactly(new PrefixMatched("r", 0, 0, List.of())));
    }

    @Test
    void matchPrefixIsInvalidStateWhileRunning() {
        fixture.given(runningR())
                .when(step(new MatchPrefix("r")))
                .expectEventsMatching(exactly(rejected(1, "MatchPrefix", INVALID_STATE, "r")));
    }

    @Test
    void matchPrefixIsInvalidStateWhileLoading() {
        fixture.given(history(configured(B4), bLoadingFromA()))
                .when(step(new MatchPrefix("b")))
                .expectEventsMatching(exactly(rejected(1, "MatchPrefix", INVALID_STATE, "b")));
    }

    @Test
    void allocateBlocksInWaitingMakesTheRequestRunning() {
        fixture.given(configured(B4), registered("r", A8))
                .when(step(new AllocateBlocks("r", List.of(1, 2)), new ComputeTokens("r", 4)))
                .expectEventsMatching(exactly(new BlocksAllocated("r", List.of(1, 2), 0), new TokensComputed("r", 4),
                        new StoreJobScheduled(0, "r", List.of(0), keys(A8, 0), List.of(1))));
    }

    @Test
    void allocateBlocksWhileRunningAppendsToTheTable() {
        fixture.given(history(configured(B4), running("r", A8, 1), computed("r", 4),
                        new StoreJobScheduled(0, "r", List.of(0), keys(A8, 0), List.of(1))))
                .when(step(new AllocateBlocks("r", List.of(2)), new ComputeTokens("r", 4)))
                .expectEventsMatching(exactly(new BlocksAllocated("r", List.of(2), 0), new TokensComputed("r", 8),
                        new StoreJobScheduled(1, "r", List.of(1), keys(A8, 1), List.of(2))));
    }

    @Test
    void allocateBlocksInPreemptedMakesTheRequestRunningAgain() {
        fixture.given(preemptedR())
                .when(step(new AllocateBlocks("r", List.of(3, 4)), new ComputeTokens("r", 4)))
                .expectEventsMatching(exactly(new BlocksAllocated("r", List.of(3, 4), 0), new TokensComputed("r", 4),
                        new StoreJobScheduled(0, "r", List.of(0), keys(A8, 0), List.of(3))));
    }

    @Test
    void allocateBlocksIsInvalidStateWhileLoading() {
        fixture.given(history(configured(B4), bLoadingFromA()))
                .when(step(new AllocateBlocks("b", List.of(8))))
                .expectEventsMatching(exactly(rejected(1, "AllocateBlocks", INVALID_STATE, "b")));
    }

    @Test
    void computeTokensIsInvalidStateInWaiting() {
        fixture.given(configured(B4), registered("r", A8), matched("r"))
                .when(step(new ComputeTokens("r", 4)))
                .expectEventsMatching(exactly(rejected(1, "ComputeTokens", INVALID_STATE, "r")));
    }

    @Test
    void computeTokensIsInvalidStateInPreempted() {
        fixture.given(preemptedR())
                .when(step(new ComputeTokens("r", 4)))
                .expectEventsMatching(exactly(rejected(1, "ComputeTokens", INVALID_STATE, "r")));
    }

    @Test
    void computeTokensIsInvalidStateWhileLoading() {
        fixture.given(history(configured(B4), bLoadingFromA()))
                .when(step(new ComputeTokens("b", 2)))
                .expectEventsMatching(exactly(rejected(1, "ComputeTokens", INVALID_STATE, "b")));
    }

    @Test
    void rejectTokensIsInvalidStateOutsideRunning() {
        // A GPU hit of all 8 tokens makes c = 8, so taking back 1 stays on the floor n - 1 = 7.
        fixture.given(configured(B4), registered("r", A8), new PrefixMatched("r", 8, 0, List.of()))
                .when(step(new RejectTokens("r", 1)))
                .expectEventsMatching(exactly(rejected(1, "RejectTokens", INVALID_STATE, "r")));
    }

    @Test
    void preemptRequestIsInvalidStateInWaitingPreemptedAndLoading() {
        fixture.given(history(configured(B4), registered("w", A8), running("p", A8, 3),
                        new RequestPreempted("p"), new BlocksReleased("p", List.of(3)), bLoadingFromA()))
                .when(step(new PreemptRequest("w"), new PreemptRequest("p"), new PreemptRequest("b")))
                .expectEventsMatching(exactly(rejected(1, "PreemptRequest", INVALID_STATE, "w"),
                        rejected(2, "PreemptRequest", INVALID_STATE, "p"),
                        rejected(3, "PreemptRequest", INVALID_STATE, "b")));
    }

    @Test
    void appendTokensIsAcceptedInWaitingPreemptedAndLoading() {
        fixture.given(history(configured(B4), registered("w", A8), running("p", A8, 3),
                        new RequestPreempted("p"), new BlocksReleased("p", List.of(3)), bLoadingFromA()))
                .when(step(new AppendTokens("w", List.of(9)), new AppendTokens("p", List.of(9)),
                        new AppendTokens("b", List.of(11))))
                .expectEventsMatching(exactly(new TokensAppended("w", 9, List.of(9)), new TokensAppended("p", 9, List.of(9)),
                        new TokensAppended("b", 11, List.of(11))));
    }

    @Test
    void abortRequestIsAcceptedInWaitingAndStoresNothing() {
        fixture.given(configured(B4), registered("q", A8), matched("q"))
                .when(step(new AbortRequest("q")))
                .expectEventsMatching(exactly(new RequestAborted("q")));
    }

    @Test
    void finishRequestIsInvalidStateWhileLoading() {
        fixture.given(history(configured(B4), bLoadingFromA()))
                .when(step(new FinishRequest("b", FinishReason.STOPPED)))
                .expectEventsMatching(exactly(rejected(1, "FinishRequest", INVALID_STATE, "b")));
    }

    @Test
    void finishRequestIsAcceptedInWaiting() {
        fixture.given(configured(B4), registered("w", A8), matched("w"))
                .when(step(new FinishRequest("w", FinishReason.STOPPED)))
                .expectEventsMatching(exactly(new RequestFinished("w", FinishReason.STOPPED)));
    }

    @Test
    void finishRequestIsAcceptedInPreempted() {
        fixture.given(preemptedR())
                .when(step(new FinishRequest("r", FinishReason.LENGTH)))
                .expectEventsMatching(exactly(new RequestFinished("r", FinishReason.LENGTH)));
    }

    @Test
    void abortRequestIsAcceptedInPreempted() {
        fixture.given(preemptedR())
                .when(step(new AbortRequest("r")))
                .expectEventsMatching(exactly(new RequestAborted("r")));
    }

    @Test
    void abortRequestIsAcceptedWhileRunningWithAnEmptyTable() {
        fixture.given(configured(B4), registered("r", A8), matched("r"), new BlocksAllocated("r", List.of(), 0))
                .when(step(new AbortRequest("r")))
                .expectEventsMatching(exactly(new RequestAborted("r")));
    }

    @Test
    void afterAbortEveryCommandOfTheRequestIsRequestTerminated() {
        fixture.given(configured(B4), registered("r", A8), matched("r"), new RequestAborted("r"))
                .when(step(new MatchPrefix("r"), new AllocateBlocks("r", List.of(1)), new ComputeTokens("r", 4),
                        new RejectTokens("r", 1), new AppendTokens("r", List.of(9)), new PreemptRequest("r"),
                        new AbortRequest("r"), new FinishRequest("r", FinishReason.STOPPED)))
                .expectEventsMatching(exactly(rejected(1, "MatchPrefix", REQUEST_TERMINATED, "r"),
                        rejected(2, "AllocateBlocks", REQUEST_TERMINATED, "r"),
                        rejected(3, "ComputeTokens", REQUEST_TERMINATED, "r"),
                        rejected(4, "RejectTokens", REQUEST_TERMINATED, "r"),
                        rejected(5, "AppendTokens", REQUEST_TERMINATED, "r"),
                        rejected(6, "PreemptRequest", REQUEST_TERMINATED, "r"),
                        rejected(7, "AbortRequest", REQUEST_TERMINATED, "r"),
                        rejected(8, "FinishRequest", REQUEST_TERMINATED, "r")));
    }

    @Test
    void afterFinishASecondFinishOrAbortChangesNothing() {
        // The finished request still has its store in flight (so it is not settled yet).
        fixture.given(history(runningR(), computed("r", 8),
                        new StoreJobScheduled(0, "r", List.of(0, 1), keys(A8, 0, 1), List.of(1, 2)),
                        new RequestFinished("r", FinishReason.STOPPED), new BlocksReleased("r", List.of(1, 2))))
                .when(step(new FinishRequest("r", FinishReason.LENGTH), new AbortRequest("r"),
                        new ComputeTokens("r", 1)))
                .expectEventsMatching(exactly(rejected(1, "FinishRequest", REQUEST_TERMINATED, "r"),
                        rejected(2, "AbortRequest", REQUEST_TERMINATED, "r"),
                        rejected(3, "ComputeTokens", REQUEST_TERMINATED, "r")));
    }

    @Test
    void registerRequestOfALiveIdIsDuplicateRequest() {
        fixture.given(configured(B4), registered("r", A8))
                .when(step(new RegisterRequest("r", List.of(5))))
                .expectEventsMatching(exactly(rejected(1, "RegisterRequest", DUPLICATE_REQUEST, "r")));
    }

    @Test
    void registerRequestOfATerminatedIdIsDuplicateRequest() {
        fixture.given(configured(B4), registered("r", A8), new RequestAborted("r"))
                .when(step(new RegisterRequest("r", A8)))
                .expectEventsMatching(exactly(rejected(1, "RegisterRequest", DUPLICATE_REQUEST, "r")));
    }

    @Test
    void completionsOfATerminatedRequestsJobsAreStillAccepted() {
        fixture.given(history(runningR(), computed("r", 8),
                        new StoreJobScheduled(0, "r", List.of(0, 1), keys(A8, 0, 1), List.of(1, 2)),
                        new RequestAborted("r"), new BlocksReleased("r", List.of(1, 2))))
                .when(step(new CompleteTransfer(0)))
                .expectEventsMatching(exactly(new StoreJobCompleted(0, "r", true), new ChunksStored(keys(A8, 0, 1))));
    }

    @Test
    void theEndOfALoadMakesTheRequestRunning() {
        fixture.given(history(configured(B4), bLoadingFromA()))
                .when(step(new CompleteTransfer(1), new ComputeTokens("b", 2)))
                .expectEventsMatching(exactly(new LoadJobCompleted(1, "b", true), new TokensComputed("b", 10)));
    }
}
