package io.kvledger.domain.decision;

import static io.kvledger.domain.decision.EngineFixtures.A8;
import static io.kvledger.domain.decision.EngineFixtures.B4;
import static io.kvledger.domain.decision.EngineFixtures.B4F2;
import static io.kvledger.domain.decision.EngineFixtures.allocated;
import static io.kvledger.domain.decision.EngineFixtures.computed;
import static io.kvledger.domain.decision.EngineFixtures.configured;
import static io.kvledger.domain.decision.EngineFixtures.history;
import static io.kvledger.domain.decision.EngineFixtures.keys;
import static io.kvledger.domain.decision.EngineFixtures.rejected;
import static io.kvledger.domain.decision.EngineFixtures.running;
import static io.kvledger.domain.decision.EngineFixtures.tokens;
import static io.kvledger.domain.event.RejectionCode.INVALID_ARGUMENT;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.event.TokensRejected;
import io.kvledger.testkit.LedgerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Contract section 4, Token bound and Storable chunks: {@code O = min(c, n, maxOffloadTokens, prompt)},
 * {@code S = min(floor(O/C), floor(len(table)/F), keys)}, the cursor, and the RejectTokens floor.
 */
class TokenBoundTest {

    private static final List<Integer> P6 = tokens(1, 6);
    private static final List<Integer> P7 = tokens(1, 7);

    /** r: prompt 1..6 on blocks 1, 2; chunk 0 stored (job 0); n = 7 after one output; block 3 added. */
    private static List<EngineEvent> rDecodingP6() {
        return history(configured(B4), running("r", P6, 1, 2), computed("r", 6),
                new StoreJobScheduled(0, "r", List.of(0), keys(P6, 0), List.of(1)),
                new TokensAppended("r", 7, List.of(7)), allocated("r", 3));
    }

    @Test
    void computeTokensStoresEveryFullChunkOfTheTable() {
        LedgerFixture.with(B4).given(running("r", A8, 1, 2))
                .when(new ComputeTokens("r", 8))
                .thenEvents(new TokensComputed("r", 8),
                        new StoreJobScheduled(0, "r", List.of(0, 1), keys(A8, 0, 1), List.of(1, 2)));
    }

    @Test
    void aPartlyComputedChunkIsNotStored() {
        LedgerFixture.with(B4).given(running("r", A8, 1, 2))
                .when(new ComputeTokens("r", 6))
                .thenEvents(new TokensComputed("r", 6),
                        new StoreJobScheduled(0, "r", List.of(0), keys(A8, 0), List.of(1)));
    }

    @Test
    void nothingIsStoredBeforeAWholeChunkIsComputed() {
        LedgerFixture.with(B4).given(running("r", A8, 1, 2))
                .when(new ComputeTokens("r", 3))
                .thenEvents(new TokensComputed("r", 3));
    }

    @Test
    void theCursorNeverOffersAStoredChunkAgain() {
        LedgerFixture.with(B4).given(history(running("r", A8, 1, 2), computed("r", 4),
                        new StoreJobScheduled(0, "r", List.of(0), keys(A8, 0), List.of(1))))
                .when(new ComputeTokens("r", 4))
                .thenEvents(new TokensComputed("r", 8),
                        new StoreJobScheduled(1, "r", List.of(1), keys(A8, 1), List.of(2)));
    }

    @Test
    void theTableBoundsTheStoreAndAllocatingDoesNotOffer() {
        LedgerFixture.with(B4).given(running("r", A8, 1))
                .when(new ComputeTokens("r", 8), new AllocateBlocks("r", List.of(2)), new ComputeTokens("r", 1))
                .thenEvents(new TokensComputed("r", 8),
                        new StoreJobScheduled(0, "r", List.of(0), keys(A8, 0), List.of(1)),
                        new BlocksAllocated("r", List.of(2), 0),
                        new TokensComputed("r", 9),
                        new StoreJobScheduled(1, "r", List.of(1), keys(A8, 1), List.of(2)));
    }

    @Test
    void withTwoBlocksPerChunkTheTableMustHoldBothBlocksOfAChunk() {
        List<Integer> p16 = tokens(1, 16);
        LedgerFixture.with(B4F2).given(running("r", p16, 1))
                .when(new ComputeTokens("r", 8), new AllocateBlocks("r", List.of(2)), new ComputeTokens("r", 4))
                .thenEvents(new TokensComputed("r", 8), new BlocksAllocated("r", List.of(2), 0),
                        new TokensComputed("r", 12),
                        new StoreJobScheduled(0, "r", List.of(0), keys(B4F2, p16, 0), List.of(1, 2)));
    }

    @Test
    void chunkedPrefillWithTwoBlocksPerChunkStoresOneJobPerFullChunk() {
        List<Integer> p20 = tokens(1, 20);
        LedgerFixture.with(B4F2).given(history(running("r", p20, 1, 2), computed("r", 8),
                        new StoreJobScheduled(0, "r", List.of(0), keys(B4F2, p20, 0), List.of(1, 2)),
                        allocated("r", 3, 4)))
                .when(new ComputeTokens("r", 8), new AllocateBlocks("r", List.of(5)), new ComputeTokens("r", 4))
                .thenEvents(new TokensComputed("r", 16),
                        new StoreJobScheduled(1, "r", List.of(1), keys(B4F2, p20, 1), List.of(3, 4)),
                        new BlocksAllocated("r", List.of(5), 0),
                        new TokensComputed("r", 20));
    }

    @Test
    void speculativeTokensPastNAreNotStored() {
        LedgerFixture.fromHistory(rDecodingP6())
                .when(new ComputeTokens("r", 3))
                .thenEvents(new TokensComputed("r", 9));
    }

    @Test
    void appendingTokensDoesNotOfferButTheNextComputeTokensDoes() {
        LedgerFixture.fromHistory(history(rDecodingP6(), computed("r", 9)))
                .when(new AppendTokens("r", List.of(8)), new ComputeTokens("r", 1))
                .thenEvents(new TokensAppended("r", 8, List.of(8)), new TokensComputed("r", 10),
                        new StoreJobScheduled(1, "r", List.of(1), keys(A8, 1), List.of(2)));
    }

    @Test
    void rejectTokensTakesComputedTokensBackDownToNMinusOne() {
        LedgerFixture.fromHistory(history(rDecodingP6(), computed("r", 9)))
                .when(new RejectTokens("r", 2), new RejectTokens("r", 1))
                .thenEvents(new TokensRejected("r", 7), new TokensRejected("r", 6));
    }

    @Test
    void rejectTokensBelowNMinusOneIsInvalidArgumentAndChangesNothing() {
        LedgerFixture.fromHistory(history(rDecodingP6(), computed("r", 9)))
                .when(new RejectTokens("r", 4), new RejectTokens("r", 3))
                .thenEvents(rejected(1, "RejectTokens", INVALID_ARGUMENT, "r"),
                        new TokensRejected("r", 6));
    }

    @Test
    void rejectTokensBelowTheStoredChunksIsInvalidArgument() {
        // n = 8, c = 10, s = 2: the floor is max(n - 1, s*C) = max(7, 8) = 8.
        LedgerFixture.with(B4).given(history(running("r", A8, 1, 2), computed("r", 10),
                        new StoreJobScheduled(0, "r", List.of(0, 1), keys(A8, 0, 1), List.of(1, 2))))
                .when(new RejectTokens("r", 3), new RejectTokens("r", 2))
                .thenEvents(rejected(1, "RejectTokens", INVALID_ARGUMENT, "r"),
                        new TokensRejected("r", 8));
    }

    @Test
    void aSampledTokenWhoseKvWasNeverComputedIsNotStoredAtFinish() {
        LedgerFixture.with(B4).given(history(running("r", P7, 1, 2), computed("r", 7),
                        new StoreJobScheduled(0, "r", List.of(0), keys(P7, 0), List.of(1)),
                        new TokensAppended("r", 8, List.of(8))))
                .when(new FinishRequest("r", FinishReason.STOPPED))
                .thenEvents(new RequestFinished("r", FinishReason.STOPPED), new BlocksReleased("r", List.of(1, 2)));
    }

    @Test
    void theLastTokenReportedComputedBeforeTheFinishIsStored() {
        LedgerFixture.with(B4).given(history(running("r", P7, 1, 2), computed("r", 7),
                        new StoreJobScheduled(0, "r", List.of(0), keys(P7, 0), List.of(1)),
                        new TokensAppended("r", 8, List.of(8))))
                .when(new ComputeTokens("r", 1), new FinishRequest("r", FinishReason.STOPPED))
                .thenEvents(new TokensComputed("r", 8),
                        new StoreJobScheduled(1, "r", List.of(1), keys(A8, 1), List.of(2)),
                        new RequestFinished("r", FinishReason.STOPPED), new BlocksReleased("r", List.of(1, 2)));
    }

    @Test
    void theBoundIsTheComputedTokensAtAbortNotTheTable() {
        List<Integer> p24 = tokens(1, 24);
        LedgerFixture.with(B4F2).given(running("r", p24, 1, 2, 3, 4, 5, 6))
                .when(new ComputeTokens("r", 16), new AbortRequest("r"))
                .thenEvents(new TokensComputed("r", 16),
                        new StoreJobScheduled(0, "r", List.of(0, 1), keys(B4F2, p24, 0, 1), List.of(1, 2, 3, 4)),
                        new RequestAborted("r"), new BlocksReleased("r", List.of(1, 2, 3, 4, 5, 6)));
    }

    @Test
    void maxOffloadTokensNeverStoresAChunkReachingPastIt() {
        LedgerFixture.with(B4.withMaxOffloadTokens(7)).given(running("r", A8, 1, 2))
                .when(new ComputeTokens("r", 8))
                .thenEvents(new TokensComputed("r", 8),
                        new StoreJobScheduled(0, "r", List.of(0), keys(A8, 0), List.of(1)));
    }

    @Test
    void maxOffloadTokensZeroStoresNothing() {
        LedgerFixture.with(B4.withMaxOffloadTokens(0)).given(running("r", A8, 1, 2))
                .when(new ComputeTokens("r", 8))
                .thenEvents(new TokensComputed("r", 8));
    }

    @Test
    void offloadPromptOnlyNeverStoresAChunkReachingPastThePrompt() {
        LedgerFixture.with(B4.withOffloadPromptOnly(true)).given(history(running("r", P6, 1, 2), computed("r", 6),
                        new StoreJobScheduled(0, "r", List.of(0), keys(P6, 0), List.of(1)),
                        new TokensAppended("r", 8, List.of(7, 8))))
                .when(new ComputeTokens("r", 2))
                .thenEvents(new TokensComputed("r", 8));
    }

    @Test
    void withoutOffloadPromptOnlyTheOutputChunkIsStored() {
        LedgerFixture.with(B4).given(history(running("r", P6, 1, 2), computed("r", 6),
                        new StoreJobScheduled(0, "r", List.of(0), keys(P6, 0), List.of(1)),
                        new TokensAppended("r", 8, List.of(7, 8))))
                .when(new ComputeTokens("r", 2))
                .thenEvents(new TokensComputed("r", 8),
                        new StoreJobScheduled(1, "r", List.of(1), keys(A8, 1), List.of(2)));
    }
}
