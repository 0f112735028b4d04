package io.kvledger.domain.decision;

import static io.kvledger.domain.decision.EngineFixtures.A8;
import static io.kvledger.domain.decision.EngineFixtures.B10;
import static io.kvledger.domain.decision.EngineFixtures.B4;
import static io.kvledger.domain.decision.EngineFixtures.B4F2;
import static io.kvledger.domain.decision.EngineFixtures.P12;
import static io.kvledger.domain.decision.EngineFixtures.X8;
import static io.kvledger.domain.decision.EngineFixtures.bLoadingFromA;
import static io.kvledger.domain.decision.EngineFixtures.computed;
import static io.kvledger.domain.decision.EngineFixtures.configured;
import static io.kvledger.domain.decision.EngineFixtures.history;
import static io.kvledger.domain.decision.EngineFixtures.keys;
import static io.kvledger.domain.decision.EngineFixtures.registered;
import static io.kvledger.domain.decision.EngineFixtures.rejected;
import static io.kvledger.domain.decision.EngineFixtures.running;
import static io.kvledger.domain.decision.EngineFixtures.storedAndReady;
import static io.kvledger.domain.decision.EngineFixtures.tokens;
import static io.kvledger.domain.event.RejectionCode.INVALID_ARGUMENT;
import static io.kvledger.domain.event.RejectionCode.INVALID_STATE;
import static io.kvledger.domain.event.StoreDeferReason.TIER_FULL;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.testkit.LedgerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Contract section 4, Loads ({@code AllocateBlocks} with {@code externalTokens > 0}). */
class LoadTest {

    /** a's chunks 0, 1 are ready; b (tokens 1..10) matched both: 8 external tokens. */
    private static List<EngineEvent> bMatchedA() {
        return history(configured(B4), storedAndReady("a", A8, 0, 1, 2), registered("b", B10),
                new PrefixMatched("b", 0, 8, List.of(0, 1)));
    }

    @Test
    void aLoadIsScheduledAfterItsBlocksAreAllocated() {
        LedgerFixture.fromHistory(bMatchedA())
                .when(new AllocateBlocks("b", List.of(5, 6, 7), 8))
                .thenEvents(new BlocksAllocated("b", List.of(5, 6, 7), 8),
                        new LoadJobScheduled(1, "b", List.of(0, 1), keys(A8, 0, 1), List.of(5, 6)));
    }

    @Test
    void aLoadWritesTheBlocksAfterTheGpuHit() {
        LedgerFixture.with(B4).given(history(storedAndReady("a", P12, 0, 1, 2, 3), registered("b", tokens(1, 14)),
                        new PrefixMatched("b", 4, 8, List.of(1, 2))))
                .when(new AllocateBlocks("b", List.of(20, 21, 22, 23), 8))
                .thenEvents(new BlocksAllocated("b", List.of(20, 21, 22, 23), 8),
                        new LoadJobScheduled(1, "b", List.of(1, 2), keys(P12, 1, 2), List.of(21, 22)));
    }

    @Test
    void aGpuHitEndingMidChunkKeepsItsBlockAndTheLoadWritesTheRestOfTheChunk() {
        List<Integer> p16 = tokens(1, 16);
        LedgerFixture.with(B4F2).given(registered("a", p16), new PrefixMatched("a", 0, 0, List.of()),
                        new BlocksAllocated("a", List.of(1, 2, 3, 4), 0), computed("a", 16),
                        new StoreJobScheduled(0, "a", List.of(0, 1), keys(B4F2, p16, 0, 1), List.of(1, 2, 3, 4)),
                        new StoreJobCompleted(0, "a", true), new ChunksStored(keys(B4F2, p16, 0, 1)),
                        registered("b", tokens(1, 20)), new PrefixMatched("b", 4, 12, List.of(0, 1)))
                .when(new AllocateBlocks("b", List.of(10, 11, 12, 13, 14), 12))
                .thenEvents(new BlocksAllocated("b", List.of(10, 11, 12, 13, 14), 12),
                        new LoadJobScheduled(1, "b", List.of(0, 1), keys(B4F2, p16, 0, 1), List.of(11, 12, 13)));
    }

    @Test
    void aLoadMayStartFromPreempted() {
        LedgerFixture.with(B4).given(history(storedAndReady("r", A8, 0, 1, 2), new TokensAppended("r", 9, List.of(9)),
                        new RequestPreempted("r"), new BlocksReleased("r", List.of(1, 2))))
                .when(new MatchPrefix("r"), new AllocateBlocks("r", List.of(7, 8, 9), 8))
                .thenEvents(new PrefixMatched("r", 0, 8, List.of(0, 1)), new BlocksAllocated("r", List.of(7, 8, 9), 8),
                        new LoadJobScheduled(1, "r", List.of(0, 1), keys(A8, 0, 1), List.of(7, 8)));
    }

    @Test
    void theNextAllocationUsesUpTheMatchEvenWithZeroExternalTokens() {
        LedgerFixture.fromHistory(bMatchedA())
                .when(new AllocateBlocks("b", List.of(5)), new AllocateBlocks("b", List.of(6, 7), 8))
                .thenEvents(new BlocksAllocated("b", List.of(5), 0),
                        rejected(2, "AllocateBlocks", INVALID_STATE, "b"));
    }

    @Test
    void aLoadWithoutAMatchIsInvalidState() {
        LedgerFixture.with(B4).given(history(storedAndReady("a", A8, 0, 1, 2), registered("b", B10)))
                .when(new AllocateBlocks("b", List.of(5, 6, 7), 8))
                .thenEvents(rejected(1, "AllocateBlocks", INVALID_STATE, "b"));
    }

    @Test
    void aLoadWithAnotherValueThanTheMatchIsInvalidState() {
        LedgerFixture.fromHistory(bMatchedA())
                .when(new AllocateBlocks("b", List.of(5, 6, 7), 4))
                .thenEvents(rejected(1, "AllocateBlocks", INVALID_STATE, "b"));
    }

    @Test
    void aLoadWhoseHitChunkWasEvictedIsInvalidState() {
        LedgerFixture.with(B4.withCpuCapacityChunks(2)).given(history(storedAndReady("a", A8, 0, 1, 2),
                        registered("b", B10), new PrefixMatched("b", 0, 8, List.of(0, 1)), running("x", X8, 9),
                        computed("x", 4), new ChunksEvicted(keys(A8, 1)),
                        new StoreJobScheduled(1, "x", List.of(0), keys(X8, 0), List.of(9))))
                .when(new AllocateBlocks("b", List.of(5, 6, 7), 8))
                .thenEvents(rejected(1, "AllocateBlocks", INVALID_STATE, "b"));
    }

    @Test
    void aTableTooShortForTheHitChunksIsInvalidArgumentAndKeepsTheMatch() {
        LedgerFixture.fromHistory(bMatchedA())
                .when(new AllocateBlocks("b", List.of(5), 8), new AllocateBlocks("b", List.of(5, 6), 8))
                .thenEvents(rejected(1, "AllocateBlocks", INVALID_ARGUMENT, "b"),
                        new BlocksAllocated("b", List.of(5, 6), 8),
                        new LoadJobScheduled(1, "b", List.of(0, 1), keys(A8, 0, 1), List.of(5, 6)));
    }

    @Test
    void pinsAreCountedSoTwoRequestsMayLoadTheSameChunks() {
        LedgerFixture.with(B4.withCpuCapacityChunks(2)).given(history(storedAndReady("a", A8, 0, 1, 2),
                        registered("b", B10), registered("c", B10), new PrefixMatched("b", 0, 8, List.of(0, 1)),
                        new PrefixMatched("c", 0, 8, List.of(0, 1)),
                        new BlocksAllocated("b", List.of(5, 6, 7), 8),
                        new LoadJobScheduled(1, "b", List.of(0, 1), keys(A8, 0, 1), List.of(5, 6)),
                        running("x", X8, 9)))
                .when(new AllocateBlocks("c", List.of(15, 16, 17), 8), new CompleteTransfer(1),
                        new ComputeTokens("x", 4))
                .thenEvents(new BlocksAllocated("c", List.of(15, 16, 17), 8),
                        new LoadJobScheduled(2, "c", List.of(0, 1), keys(A8, 0, 1), List.of(15, 16)),
                        new LoadJobCompleted(1, "b", true), new TokensComputed("x", 4),
                        new StoreDeferred("x", List.of(0), TIER_FULL));
    }

    @Test
    void theCursorMovesPastTheLoadedChunks() {
        LedgerFixture.with(B4).given(history(storedAndReady("a", A8, 0, 1, 2), registered("b", P12),
                        new PrefixMatched("b", 0, 8, List.of(0, 1)), new BlocksAllocated("b", List.of(5, 6, 7), 8),
                        new LoadJobScheduled(1, "b", List.of(0, 1), keys(A8, 0, 1), List.of(5, 6))))
                .when(new CompleteTransfer(1), new ComputeTokens("b", 4))
                .thenEvents(new LoadJobCompleted(1, "b", true), new TokensComputed("b", 12),
                        new StoreJobScheduled(2, "b", List.of(2), keys(P12, 2), List.of(7)));
    }

    @Test
    void theCursorAfterALoadIsTheMaxOfItselfAndTheLoadEnd() {
        // r stored chunks 0, 1 (s = 2), was preempted, lost chunk 1 and loads chunk 0 only: s stays 2.
        LedgerFixture.with(B4.withCpuCapacityChunks(2)).given(history(storedAndReady("r", A8, 0, 1, 2),
                        new RequestPreempted("r"), new BlocksReleased("r", List.of(1, 2)), running("x", X8, 9),
                        computed("x", 4), new ChunksEvicted(keys(A8, 1)),
                        new StoreJobScheduled(1, "x", List.of(0), keys(X8, 0), List.of(9)),
                        new PrefixMatched("r", 0, 4, List.of(0)), new BlocksAllocated("r", List.of(7, 8), 4),
                        new LoadJobScheduled(2, "r", List.of(0), keys(A8, 0), List.of(7))))
                .when(new CompleteTransfer(2), new ComputeTokens("r", 4))
                .thenEvents(new LoadJobCompleted(2, "r", true), new TokensComputed("r", 8));
    }

    @Test
    void aSuccessfulLoadSetsCButAlwaysRecomputesTheLastToken() {
        // n = 10, L + externalTokens = 8: c = min(8, 9) = 8.
        LedgerFixture.fromHistory(history(bMatchedA(), new BlocksAllocated("b", List.of(5, 6, 7), 8),
                        new LoadJobScheduled(1, "b", List.of(0, 1), keys(A8, 0, 1), List.of(5, 6))))
                .when(new CompleteTransfer(1), new ComputeTokens("b", 1))
                .thenEvents(new LoadJobCompleted(1, "b", true), new TokensComputed("b", 9));
    }

    @Test
    void aLoadOfEveryTokenLeavesTheLastOneToRecompute() {
        // n = 8 = L + externalTokens: c = n - 1 = 7.
        LedgerFixture.with(B4).given(history(storedAndReady("a", A8, 0, 1, 2), registered("b", A8),
                        new PrefixMatched("b", 0, 8, List.of(0, 1)), new BlocksAllocated("b", List.of(5, 6), 8),
                        new LoadJobScheduled(1, "b", List.of(0, 1), keys(A8, 0, 1), List.of(5, 6))))
                .when(new CompleteTransfer(1), new ComputeTokens("b", 1))
                .thenEvents(new LoadJobCompleted(1, "b", true), new TokensComputed("b", 8));
    }

    @Test
    void theRecomputedLastTokenIsCountedWithNAsItIsWhenTheLoadEnds() {
        // n grows from 8 to 9 during the load: c = min(8, 9 - 1) = 8.
        LedgerFixture.with(B4).given(history(storedAndReady("a", A8, 0, 1, 2), registered("b", A8),
                        new PrefixMatched("b", 0, 8, List.of(0, 1)), new BlocksAllocated("b", List.of(5, 6, 7), 8),
                        new LoadJobScheduled(1, "b", List.of(0, 1), keys(A8, 0, 1), List.of(5, 6))))
                .when(new AppendTokens("b", List.of(9)), new CompleteTransfer(1), new ComputeTokens("b", 1))
                .thenEvents(new TokensAppended("b", 9, List.of(9)), new LoadJobCompleted(1, "b", true),
                        new TokensComputed("b", 9));
    }

    @Test
    void aFailedLoadLeavesCAtLDropsItsChunksAndRewindsTheCursor() {
        // The match touched chunk 0 last, so chunk 1 is the least recently used.
        LedgerFixture.with(B4).given(bLoadingFromA())
                .when(new CompleteTransfer(1, false), new ComputeTokens("b", 8))
                .thenEvents(new LoadJobCompleted(1, "b", false), new ChunksEvicted(keys(A8, 1, 0)),
                        new TokensComputed("b", 8),
                        new StoreJobScheduled(2, "b", List.of(0, 1), keys(A8, 0, 1), List.of(5, 6)));
    }

    @Test
    void aFailedLoadKeepsChunksAnotherLoadStillPins() {
        LedgerFixture.with(B4).given(history(storedAndReady("a", A8, 0, 1, 2),
                        registered("b", B10), registered("c", B10), new PrefixMatched("b", 0, 8, List.of(0, 1)),
                        new PrefixMatched("c", 0, 8, List.of(0, 1)), new BlocksAllocated("b", List.of(5, 6, 7), 8),
                        new LoadJobScheduled(1, "b", List.of(0, 1), keys(A8, 0, 1), List.of(5, 6)),
                        new BlocksAllocated("c", List.of(15, 16, 17), 8),
                        new LoadJobScheduled(2, "c", List.of(0, 1), keys(A8, 0, 1), List.of(15, 16))))
                .when(new CompleteTransfer(1, false), new CompleteTransfer(2))
                .thenEvents(new LoadJobCompleted(1, "b", false), new LoadJobCompleted(2, "c", true));
    }
}
