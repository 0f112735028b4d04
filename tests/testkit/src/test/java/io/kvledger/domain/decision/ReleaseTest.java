package io.kvledger.domain.decision;

import static io.kvledger.domain.decision.EngineFixtures.A4;
import static io.kvledger.domain.decision.EngineFixtures.A8;
import static io.kvledger.domain.decision.EngineFixtures.B10;
import static io.kvledger.domain.decision.EngineFixtures.B4;
import static io.kvledger.domain.decision.EngineFixtures.B4_DELAY_FREE;
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
import static io.kvledger.domain.decision.EngineFixtures.storing;
import static io.kvledger.domain.decision.EngineFixtures.tokens;
import static io.kvledger.domain.event.RejectionCode.REQUEST_TERMINATED;
import static io.kvledger.domain.event.StoreDeferReason.TIER_FULL;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.testkit.LedgerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Contract section 4, Release at abort and finish: FENCE (release at once, fence the sources of stores
 * in flight, {@code FlushRequired} before handing a fenced block out) and DELAY_FREE.
 */
class ReleaseTest {

    /** r (tokens 1..8, blocks 1, 2) computed its prompt, store job 0 in flight, and sampled token 9. */
    private static List<EngineEvent> rStoring(EngineConfig config) {
        return history(configured(config), storing("r", A8, 0, 1, 2), new TokensAppended("r", 9, List.of(9)));
    }

    /** FENCE: r finished with its store in flight; blocks 1, 2 are released and fenced by job 0. */
    private static List<EngineEvent> rFinishedWhileStoring() {
        return history(rStoring(B4), new RequestFinished("r", FinishReason.STOPPED),
                new BlocksReleased("r", List.of(1, 2)), registered("p", A8), registered("q", A8));
    }

    /** Capacity 1: a (tokens 1..4, block 1) stored chunk 0 with job 0, now ready; x's offer was deferred. */
    private static List<EngineEvent> xDeferredThenRoom(EngineConfig config) {
        return history(configured(config.withCpuCapacityChunks(1)), running("a", A4, 1), computed("a", 4),
                new StoreJobScheduled(0, "a", List.of(0), keys(A4, 0), List.of(1)), running("x", X8, 9),
                computed("x", 4), new StoreDeferred("x", List.of(0), TIER_FULL),
                new StoreJobCompleted(0, "a", true), new ChunksStored(keys(A4, 0)), registered("q", A8));
    }

    @Test
    void fenceReleasesEveryBlockAtOnceAtFinish() {
        LedgerFixture.fromHistory(rStoring(B4))
                .when(new FinishRequest("r", FinishReason.STOPPED))
                .thenEvents(new RequestFinished("r", FinishReason.STOPPED), new BlocksReleased("r", List.of(1, 2)));
    }

    @Test
    void aFencedBlockHandedOutIsAnsweredFirstByAFlushNamingOnlyTheFencedBlocks() {
        LedgerFixture.fromHistory(rFinishedWhileStoring())
                .when(new AllocateBlocks("q", List.of(7, 2)))
                .thenEvents(new FlushRequired(List.of(0L), List.of(2)), new BlocksAllocated("q", List.of(7, 2), 0));
    }

    @Test
    void aFencedBlockHandedOutAgainBeforeItsStoreEndsGetsAnotherFlush() {
        LedgerFixture.fromHistory(rFinishedWhileStoring())
                .when(new AllocateBlocks("p", List.of(1)), new AllocateBlocks("q", List.of(1)))
                .thenEvents(new FlushRequired(List.of(0L), List.of(1)), new BlocksAllocated("p", List.of(1), 0),
                        new FlushRequired(List.of(0L), List.of(1)), new BlocksAllocated("q", List.of(1), 0));
    }

    @Test
    void theFenceLiftsWhenTheStoreEnds() {
        LedgerFixture.fromHistory(rFinishedWhileStoring())
                .when(new CompleteTransfer(0), new AllocateBlocks("q", List.of(1, 2)))
                .thenEvents(new StoreJobCompleted(0, "r", true), new ChunksStored(keys(A8, 0, 1)),
                        new BlocksAllocated("q", List.of(1, 2), 0));
    }

    @Test
    void theFenceLiftsWhenTheStoreFailsToo() {
        LedgerFixture.fromHistory(rFinishedWhileStoring())
                .when(new CompleteTransfer(0, false), new AllocateBlocks("q", List.of(1, 2)))
                .thenEvents(new StoreJobCompleted(0, "r", false), new BlocksAllocated("q", List.of(1, 2), 0));
    }

    @Test
    void theFlushListsFencingJobsAscendingAndBlocksInAllocationOrderWithoutRepeats() {
        LedgerFixture.with(B4).given(history(running("r", A8, 1, 2), computed("r", 4),
                        new StoreJobScheduled(0, "r", List.of(0), keys(A8, 0), List.of(1)), computed("r", 8),
                        new StoreJobScheduled(1, "r", List.of(1), keys(A8, 1), List.of(2)),
                        new RequestAborted("r"), new BlocksReleased("r", List.of(1, 2)), registered("q", A8)))
                .when(new AllocateBlocks("q", List.of(2, 9, 1, 2)))
                .thenEvents(new FlushRequired(List.of(0L, 1L), List.of(2, 1)),
                        new BlocksAllocated("q", List.of(2, 9, 1, 2), 0));
    }

    @Test
    void theStoreMadeByTheTerminalCommandItselfIsFenced() {
        LedgerFixture.fromHistory(xDeferredThenRoom(B4))
                .when(new AbortRequest("x"), new AllocateBlocks("q", List.of(9)))
                .thenEvents(new RequestAborted("x"), new ChunksEvicted(keys(A4, 0)),
                        new StoreJobScheduled(1, "x", List.of(0), keys(X8, 0), List.of(9)),
                        new BlocksReleased("x", List.of(9)),
                        new FlushRequired(List.of(1L), List.of(9)), new BlocksAllocated("q", List.of(9), 0));
    }

    @Test
    void storesFlushedAtAnEarlierPreemptionAreFencedAtAbort() {
        LedgerFixture.fromHistory(history(rStoring(B4), new RequestPreempted("r"), new FlushRequired(List.of(0L), List.of(1, 2)),
                        new BlocksReleased("r", List.of(1, 2)), new BlocksAllocated("r", List.of(5, 6), 0),
                        registered("q", A8)))
                .when(new AbortRequest("r"), new AllocateBlocks("q", List.of(5, 1)))
                .thenEvents(new RequestAborted("r"), new BlocksReleased("r", List.of(5, 6)),
                        new FlushRequired(List.of(0L), List.of(1)), new BlocksAllocated("q", List.of(5, 1), 0));
    }

    @Test
    void anAbortWithAnEmptyTableReleasesNothingButStillFencesItsStores() {
        LedgerFixture.fromHistory(history(rStoring(B4), new RequestPreempted("r"), new FlushRequired(List.of(0L), List.of(1, 2)),
                        new BlocksReleased("r", List.of(1, 2)), registered("q", A8)))
                .when(new AbortRequest("r"), new AllocateBlocks("q", List.of(2)))
                .thenEvents(new RequestAborted("r"), new FlushRequired(List.of(0L), List.of(2)),
                        new BlocksAllocated("q", List.of(2), 0));
    }

    @Test
    void aLoadThatHandsOutAFencedBlockIsAnsweredFirstByAFlush() {
        LedgerFixture.with(B4).given(history(running("x", X8, 9), storedAndReady("a", A8, 0, 1, 2),
                        computed("x", 4), new StoreJobScheduled(1, "x", List.of(0), keys(X8, 0), List.of(9)),
                        new RequestAborted("x"), new BlocksReleased("x", List.of(9)), registered("b", B10),
                        new PrefixMatched("b", 0, 8, List.of(0, 1))))
                .when(new AllocateBlocks("b", List.of(9, 6, 7), 8))
                .thenEvents(new FlushRequired(List.of(1L), List.of(9)), new BlocksAllocated("b", List.of(9, 6, 7), 8),
                        new LoadJobScheduled(2, "b", List.of(0, 1), keys(A8, 0, 1), List.of(9, 6)));
    }

    @Test
    void fenceKeepsTheBlocksALoadIsWritingIntoUntilTheLoadEnds() {
        LedgerFixture.with(B4).given(bLoadingFromA())
                .when(new AbortRequest("b"), new CompleteTransfer(1))
                .thenEvents(new RequestAborted("b"), new BlocksReleased("b", List.of(7)),
                        new LoadJobCompleted(1, "b", true), new BlocksReleased("b", List.of(5, 6)));
    }

    /** b's table names block 5 twice; its load writes into the first copy only (table[0..2) = [5, 6]). */
    private static List<EngineEvent> bLoadingIntoARepeatedBlock(List<Integer> table) {
        return history(configured(B4), storedAndReady("a", A8, 0, 1, 2), registered("b", B10),
                new PrefixMatched("b", 0, 8, List.of(0, 1)), new BlocksAllocated("b", table, 8),
                new LoadJobScheduled(1, "b", List.of(0, 1), keys(A8, 0, 1), List.of(5, 6)));
    }

    @Test
    void fenceHoldsABlockTheLoadWritesIntoAtEveryPositionOfTheTable() {
        LedgerFixture.fromHistory(bLoadingIntoARepeatedBlock(List.of(5, 6, 5)))
                .when(new AbortRequest("b"))
                .thenEvents(new RequestAborted("b"));
    }

    @Test
    void fenceReleasesTheOtherBlocksAtOnceAndEveryCopyOfTheLoadedOnesWhenTheLoadEnds() {
        LedgerFixture.fromHistory(bLoadingIntoARepeatedBlock(List.of(5, 6, 7, 5)))
                .when(new AbortRequest("b"), new CompleteTransfer(1))
                .thenEvents(new RequestAborted("b"), new BlocksReleased("b", List.of(7)),
                        new LoadJobCompleted(1, "b", true), new BlocksReleased("b", List.of(5, 6, 5)));
    }

    @Test
    void aFailedLoadOfAnAbortedRequestDropsItsChunksThenReleasesAndTheRequestStaysAborted() {
        LedgerFixture.with(B4).given(history(bLoadingFromA(), new RequestAborted("b"),
                        new BlocksReleased("b", List.of(7))))
                .when(new CompleteTransfer(1, false), new ComputeTokens("b", 1))
                .thenEvents(new LoadJobCompleted(1, "b", false), new ChunksEvicted(keys(A8, 1, 0)),
                        new BlocksReleased("b", List.of(5, 6)), rejected(2, "ComputeTokens", REQUEST_TERMINATED, "b"));
    }

    @Test
    void whenTheLoadWritesIntoEveryBlockNothingIsReleasedAtAbort() {
        LedgerFixture.with(B4).given(history(running("a", A8, 1, 2), computed("a", 8),
                        new StoreJobScheduled(0, "a", List.of(0, 1), keys(A8, 0, 1), List.of(1, 2)),
                        new StoreJobCompleted(0, "a", true), new ChunksStored(keys(A8, 0, 1)), registered("b", A8),
                        new PrefixMatched("b", 0, 8, List.of(0, 1)), new BlocksAllocated("b", List.of(5, 6), 8),
                        new LoadJobScheduled(1, "b", List.of(0, 1), keys(A8, 0, 1), List.of(5, 6))))
                .when(new AbortRequest("b"))
                .thenEvents(new RequestAborted("b"));
    }

    @Test
    void delayFreeReleasesOnlyWhenTheStoreCompletes() {
        LedgerFixture.fromHistory(rStoring(B4_DELAY_FREE))
                .when(new FinishRequest("r", FinishReason.STOPPED), new CompleteTransfer(0))
                .thenEvents(new RequestFinished("r", FinishReason.STOPPED), new StoreJobCompleted(0, "r", true),
                        new ChunksStored(keys(A8, 0, 1)), new BlocksReleased("r", List.of(1, 2)));
    }

    @Test
    void delayFreeWaitsForEveryStoreOfTheRequest() {
        LedgerFixture.with(B4_DELAY_FREE).given(history(running("r", A8, 1, 2), computed("r", 4),
                        new StoreJobScheduled(0, "r", List.of(0), keys(A8, 0), List.of(1)), computed("r", 8),
                        new StoreJobScheduled(1, "r", List.of(1), keys(A8, 1), List.of(2)),
                        new RequestFinished("r", FinishReason.LENGTH)))
                .when(new CompleteTransfer(1), new CompleteTransfer(0, false))
                .thenEvents(new StoreJobCompleted(1, "r", true), new ChunksStored(keys(A8, 1)),
                        new StoreJobCompleted(0, "r", false), new BlocksReleased("r", List.of(1, 2)));
    }

    @Test
    void delayFreeAlsoWaitsForStoresFlushedAtAnEarlierPreemption() {
        LedgerFixture.fromHistory(history(rStoring(B4_DELAY_FREE), new RequestPreempted("r"),
                        new FlushRequired(List.of(0L), List.of(1, 2)), new BlocksReleased("r", List.of(1, 2)),
                        new BlocksAllocated("r", List.of(5, 6), 0)))
                .when(new FinishRequest("r", FinishReason.STOPPED), new CompleteTransfer(0))
                .thenEvents(new RequestFinished("r", FinishReason.STOPPED), new StoreJobCompleted(0, "r", true),
                        new ChunksStored(keys(A8, 0, 1)), new BlocksReleased("r", List.of(5, 6)));
    }

    @Test
    void delayFreeReleasesAtOnceWhenNothingIsInFlight() {
        LedgerFixture.fromHistory(history(rStoring(B4_DELAY_FREE), new StoreJobCompleted(0, "r", true),
                        new ChunksStored(keys(A8, 0, 1))))
                .when(new AbortRequest("r"))
                .thenEvents(new RequestAborted("r"), new BlocksReleased("r", List.of(1, 2)));
    }

    @Test
    void delayFreeHoldsTheBlocksOfAStoreMadeByTheTerminalCommand() {
        LedgerFixture.fromHistory(xDeferredThenRoom(B4_DELAY_FREE))
                .when(new AbortRequest("x"), new CompleteTransfer(1))
                .thenEvents(new RequestAborted("x"), new ChunksEvicted(keys(A4, 0)),
                        new StoreJobScheduled(1, "x", List.of(0), keys(X8, 0), List.of(9)),
                        new StoreJobCompleted(1, "x", true), new ChunksStored(keys(X8, 0)),
                        new BlocksReleased("x", List.of(9)));
    }

    @Test
    void delayFreeReleasesTheWholeTableOfAnAbortedLoadWhenTheLoadEnds() {
        LedgerFixture.with(B4_DELAY_FREE).given(bLoadingFromA())
                .when(new AbortRequest("b"), new CompleteTransfer(1))
                .thenEvents(new RequestAborted("b"), new LoadJobCompleted(1, "b", true),
                        new BlocksReleased("b", List.of(5, 6, 7)));
    }
}
