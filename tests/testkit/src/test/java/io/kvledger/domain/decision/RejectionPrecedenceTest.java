package io.kvledger.domain.decision;

import static io.kvledger.domain.decision.EngineFixtures.A8;
import static io.kvledger.domain.decision.EngineFixtures.B10;
import static io.kvledger.domain.decision.EngineFixtures.B4;
import static io.kvledger.domain.decision.EngineFixtures.bLoadingFromA;
import static io.kvledger.domain.decision.EngineFixtures.computed;
import static io.kvledger.domain.decision.EngineFixtures.history;
import static io.kvledger.domain.decision.EngineFixtures.keys;
import static io.kvledger.domain.decision.EngineFixtures.matched;
import static io.kvledger.domain.decision.EngineFixtures.registered;
import static io.kvledger.domain.decision.EngineFixtures.rejected;
import static io.kvledger.domain.decision.EngineFixtures.rejectedJob;
import static io.kvledger.domain.decision.EngineFixtures.running;
import static io.kvledger.domain.decision.EngineFixtures.storedAndReady;
import static io.kvledger.domain.decision.EngineFixtures.tokens;
import static io.kvledger.domain.event.RejectionCode.DUPLICATE_REQUEST;
import static io.kvledger.domain.event.RejectionCode.INVALID_ARGUMENT;
import static io.kvledger.domain.event.RejectionCode.INVALID_STATE;
import static io.kvledger.domain.event.RejectionCode.REQUEST_TERMINATED;
import static io.kvledger.domain.event.RejectionCode.STALE_JOB;
import static io.kvledger.domain.event.RejectionCode.UNKNOWN_JOB;
import static io.kvledger.domain.event.RejectionCode.UNKNOWN_REQUEST;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.InvalidCommand;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.testkit.LedgerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Contract section 4, Bad input: when several codes apply, the first of INVALID_ARGUMENT (request id),
 * UNKNOWN_REQUEST / DUPLICATE_REQUEST, REQUEST_TERMINATED, INVALID_ARGUMENT (own fields), INVALID_STATE,
 * INVALID_ARGUMENT (table too short) wins; for completions INVALID_ARGUMENT, UNKNOWN_JOB, STALE_JOB,
 * JOB_ALREADY_COMPLETE.
 */
class RejectionPrecedenceTest {

    @Test
    void aBadRequestIdComesBeforeEveryOtherCode() {
        LedgerFixture.with(B4)
                .when(new InvalidCommand("ComputeTokens", null, "requestId is missing; tokens is 4.0", null, null),
                        new InvalidCommand("RegisterRequest", null, "requestId must be a string", 12L, null))
                .thenEvents(rejected(1, "ComputeTokens", INVALID_ARGUMENT, null),
                        rejected(2, "RegisterRequest", INVALID_ARGUMENT, 12L));
    }

    @Test
    void anUnknownRequestComesBeforeItsBadFields() {
        LedgerFixture.with(B4)
                .when(new ComputeTokens("nobody", 0), new MatchPrefix("nobody", 3),
                        new AllocateBlocks("nobody", List.of(-1), -4), new RejectTokens("nobody", 0),
                        new AppendTokens("nobody", List.of()), new FinishRequest("nobody", null),
                        new InvalidCommand("ComputeTokens", "nobody", "tokens is missing", "nobody", null))
                .thenEvents(rejected(1, "ComputeTokens", UNKNOWN_REQUEST, "nobody"),
                        rejected(2, "MatchPrefix", UNKNOWN_REQUEST, "nobody"),
                        rejected(3, "AllocateBlocks", UNKNOWN_REQUEST, "nobody"),
                        rejected(4, "RejectTokens", UNKNOWN_REQUEST, "nobody"),
                        rejected(5, "AppendTokens", UNKNOWN_REQUEST, "nobody"),
                        rejected(6, "FinishRequest", UNKNOWN_REQUEST, "nobody"),
                        rejected(7, "ComputeTokens", UNKNOWN_REQUEST, "nobody"));
    }

    @Test
    void aDuplicateRequestComesBeforeItsBadFields() {
        LedgerFixture.with(B4).given(registered("r", A8))
                .when(new RegisterRequest("r", List.of()), new RegisterRequest("r", List.of(-1)),
                        new InvalidCommand("RegisterRequest", "r", "promptTokens is missing", "r", null))
                .thenEvents(rejected(1, "RegisterRequest", DUPLICATE_REQUEST, "r"),
                        rejected(2, "RegisterRequest", DUPLICATE_REQUEST, "r"),
                        rejected(3, "RegisterRequest", DUPLICATE_REQUEST, "r"));
    }

    @Test
    void aTerminatedRequestComesBeforeItsBadFields() {
        LedgerFixture.with(B4).given(registered("r", A8), matched("r"), new RequestAborted("r"))
                .when(new ComputeTokens("r", 0), new MatchPrefix("r", 3), new AllocateBlocks("r", List.of(-1)),
                        new RejectTokens("r", 0), new AppendTokens("r", List.of()), new FinishRequest("r", null),
                        new InvalidCommand("ComputeTokens", "r", "tokens is missing", "r", null))
                .thenEvents(rejected(1, "ComputeTokens", REQUEST_TERMINATED, "r"),
                        rejected(2, "MatchPrefix", REQUEST_TERMINATED, "r"),
                        rejected(3, "AllocateBlocks", REQUEST_TERMINATED, "r"),
                        rejected(4, "RejectTokens", REQUEST_TERMINATED, "r"),
                        rejected(5, "AppendTokens", REQUEST_TERMINATED, "r"),
                        rejected(6, "FinishRequest", REQUEST_TERMINATED, "r"),
                        rejected(7, "ComputeTokens", REQUEST_TERMINATED, "r"));
    }

    @Test
    void ownFieldsComeBeforeTheStateInWaiting() {
        // WAITING with c = 0, n = 8: RejectTokens 1 would go below the floor n - 1.
        LedgerFixture.with(B4).given(registered("r", A8), matched("r"))
                .when(new ComputeTokens("r", 0), new RejectTokens("r", 1))
                .thenEvents(rejected(1, "ComputeTokens", INVALID_ARGUMENT, "r"),
                        rejected(2, "RejectTokens", INVALID_ARGUMENT, "r"));
    }

    @Test
    void ownFieldsComeBeforeTheStateWhileRunning() {
        LedgerFixture.with(B4).given(running("r", A8, 1, 2))
                .when(new MatchPrefix("r", 12), new MatchPrefix("r", 3), new MatchPrefix("r", 4))
                .thenEvents(rejected(1, "MatchPrefix", INVALID_ARGUMENT, "r"),
                        rejected(2, "MatchPrefix", INVALID_ARGUMENT, "r"),
                        rejected(3, "MatchPrefix", INVALID_STATE, "r"));
    }

    @Test
    void ownFieldsComeBeforeTheStateWhileLoading() {
        LedgerFixture.with(B4).given(bLoadingFromA())
                .when(new AllocateBlocks("b", List.of(-8)), new AllocateBlocks("b", List.of(8), -4),
                        new FinishRequest("b", null), new ComputeTokens("b", 0), new AllocateBlocks("b", List.of(8)))
                .thenEvents(rejected(1, "AllocateBlocks", INVALID_ARGUMENT, "b"),
                        rejected(2, "AllocateBlocks", INVALID_ARGUMENT, "b"),
                        rejected(3, "FinishRequest", INVALID_ARGUMENT, "b"),
                        rejected(4, "ComputeTokens", INVALID_ARGUMENT, "b"),
                        rejected(5, "AllocateBlocks", INVALID_STATE, "b"));
    }

    @Test
    void aLoadInTheWrongStateIsInvalidStateEvenWithATableTooShort() {
        LedgerFixture.with(B4).given(history(running("r", B10, 5), storedAndReady("a", A8, 0, 1, 2),
                        registered("w", B10)))
                .when(new AllocateBlocks("r", List.of(), 8), new AllocateBlocks("w", List.of(), 8))
                .thenEvents(rejected(1, "AllocateBlocks", INVALID_STATE, "r"),
                        rejected(2, "AllocateBlocks", INVALID_STATE, "w"));
    }

    @Test
    void aLoadOfAnEvictedHitIsInvalidStateEvenWithATableTooShort() {
        List<Integer> x8 = tokens(101, 108);
        LedgerFixture.with(B4.withCpuCapacityChunks(2)).given(history(storedAndReady("a", A8, 0, 1, 2),
                        registered("b", B10), new PrefixMatched("b", 0, 8, List.of(0, 1)), running("x", x8, 9),
                        computed("x", 4), new ChunksEvicted(keys(A8, 1)),
                        new StoreJobScheduled(1, "x", List.of(0), keys(x8, 0), List.of(9))))
                .when(new AllocateBlocks("b", List.of(5), 8))
                .thenEvents(rejected(1, "AllocateBlocks", INVALID_STATE, "b"));
    }

    @Test
    void forCompletionsInvalidArgumentComesFirstThenUnknownJob() {
        LedgerFixture.with(B4)
                .when(new CompleteTransfer(-3), new CompleteTransfer(0),
                        new InvalidCommand("CompleteTransfer", null, "success must be a boolean", null, 0L))
                .thenEvents(rejectedJob(1, INVALID_ARGUMENT, -3L), rejectedJob(2, UNKNOWN_JOB, 0L),
                        rejectedJob(3, INVALID_ARGUMENT, 0L));
    }

    @Test
    void forCompletionsStaleJobComesBeforeJobAlreadyComplete() {
        LedgerFixture.with(B4).given(history(storedAndReady("a", A8, 0, 1, 2), new CacheReset(1)))
                .when(new CompleteTransfer(0), new CompleteTransfer(1))
                .thenEvents(rejectedJob(1, STALE_JOB, 0L), rejectedJob(2, UNKNOWN_JOB, 1L));
    }

    @Test
    void aRejectedTerminalCommandLeavesTheRequestLive() {
        LedgerFixture.with(B4).given(bLoadingFromA())
                .when(new FinishRequest("b", FinishReason.STOPPED),
                        new AbortRequest("b"))
                .thenEvents(rejected(1, "FinishRequest", INVALID_STATE, "b"),
                        new RequestAborted("b"), new BlocksReleased("b", List.of(7)));
    }
}
