package io.kvledger.domain.decision;

import static io.kvledger.domain.decision.EngineFixtures.A4;
import static io.kvledger.domain.decision.EngineFixtures.A8;
import static io.kvledger.domain.decision.EngineFixtures.B4;
import static io.kvledger.domain.decision.EngineFixtures.X8;
import static io.kvledger.domain.decision.EngineFixtures.Y4;
import static io.kvledger.domain.decision.EngineFixtures.allocated;
import static io.kvledger.domain.decision.EngineFixtures.bLoadingFromA;
import static io.kvledger.domain.decision.EngineFixtures.computed;
import static io.kvledger.domain.decision.EngineFixtures.history;
import static io.kvledger.domain.decision.EngineFixtures.keys;
import static io.kvledger.domain.decision.EngineFixtures.registered;
import static io.kvledger.domain.decision.EngineFixtures.running;
import static io.kvledger.domain.decision.EngineFixtures.storedAndReady;
import static io.kvledger.domain.decision.EngineFixtures.tokens;
import static io.kvledger.domain.event.StoreDeferReason.TIER_FULL;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.testkit.LedgerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Contract section 4, Stores: what the CPU tier holds, its capacity, least-recently-used eviction,
 * touches, and {@code StoreDeferred} when it cannot make room.
 */
class StoreOfferTest {

    private static EngineConfig capacity(int chunks) {
        return B4.withCpuCapacityChunks(chunks);
    }

    /** Request "x" (tokens 101..108) RUNNING on block 9: one chunk's worth of blocks. */
    private static List<EngineEvent> xRunning() {
        return running("x", X8, 9);
    }

    /** Request "a" (tokens 1..4) on block 1 computed its prompt: its store, job 0, is writing chunk 0. */
    private static List<EngineEvent> aWriting() {
        return history(running("a", A4, 1), computed("a", 4),
                new StoreJobScheduled(0, "a", List.of(0), keys(A4, 0), List.of(1)));
    }

    @Test
    void capacityCountsChunksBeingWritten() {
        LedgerFixture.with(capacity(1)).given(history(aWriting(), xRunning()))
                .when(new ComputeTokens("x", 4))
                .thenEvents(new TokensComputed("x", 4), new StoreDeferred("x", List.of(0), TIER_FULL));
    }

    @Test
    void aFullTierEvictsTheLeastRecentlyUsedReadyChunkAndALowerIndexIsMoreRecent() {
        LedgerFixture.with(capacity(2)).given(history(storedAndReady("a", A8, 0, 1, 2), xRunning()))
                .when(new ComputeTokens("x", 4))
                .thenEvents(new TokensComputed("x", 4), new ChunksEvicted(keys(A8, 1)),
                        new StoreJobScheduled(1, "x", List.of(0), keys(X8, 0), List.of(9)));
    }

    @Test
    void evictedChunksAreListedLeastRecentlyUsedFirst() {
        LedgerFixture.with(capacity(2)).given(history(storedAndReady("a", A8, 0, 1, 2), running("x", X8, 9, 10)))
                .when(new ComputeTokens("x", 8))
                .thenEvents(new TokensComputed("x", 8), new ChunksEvicted(keys(A8, 1, 0)),
                        new StoreJobScheduled(1, "x", List.of(0, 1), keys(X8, 0, 1), List.of(9, 10)));
    }

    @Test
    void aChunkBecomingReadyIsNotATouch() {
        // a0 is offered before y0; a0 becomes ready last, yet stays the least recently used.
        LedgerFixture.with(capacity(2)).given(history(aWriting(), running("y", Y4, 2), computed("y", 4),
                        new StoreJobScheduled(1, "y", List.of(0), keys(Y4, 0), List.of(2)),
                        new StoreJobCompleted(1, "y", true), new ChunksStored(keys(Y4, 0)),
                        new StoreJobCompleted(0, "a", true), new ChunksStored(keys(A4, 0)), xRunning()))
                .when(new ComputeTokens("x", 4))
                .thenEvents(new TokensComputed("x", 4), new ChunksEvicted(keys(A4, 0)),
                        new StoreJobScheduled(2, "x", List.of(0), keys(X8, 0), List.of(9)));
    }

    @Test
    void pinnedChunksAreNeverEvicted() {
        LedgerFixture.with(capacity(2)).given(history(bLoadingFromA(), xRunning()))
                .when(new ComputeTokens("x", 4))
                .thenEvents(new TokensComputed("x", 4), new StoreDeferred("x", List.of(0), TIER_FULL));
    }

    @Test
    void chunksOfTheOfferAreNotEvictedToMakeRoomForIt() {
        // c shares a's first chunk; the tier holds it, lacks chunk 1, and may not evict chunk 0 for it.
        LedgerFixture.with(capacity(1)).given(history(storedAndReady("a", A4, 0, 1),
                        registered("c", A8), allocated("c", 5, 6)))
                .when(new ComputeTokens("c", 8))
                .thenEvents(new TokensComputed("c", 8), new StoreDeferred("c", List.of(0, 1), TIER_FULL));
    }

    @Test
    void aDeferredOfferIsMadeAgainAtTheNextComputeTokensFromTheSameCursor() {
        LedgerFixture.with(capacity(1)).given(history(aWriting(), xRunning(), computed("x", 4),
                        new StoreDeferred("x", List.of(0), TIER_FULL),
                        new StoreJobCompleted(0, "a", true), new ChunksStored(keys(A4, 0))))
                .when(new ComputeTokens("x", 1))
                .thenEvents(new TokensComputed("x", 5), new ChunksEvicted(keys(A4, 0)),
                        new StoreJobScheduled(1, "x", List.of(0), keys(X8, 0), List.of(9)));
    }

    @Test
    void aDeferredOfferTouchesNothing() {
        // a0 ready (older), y0 writing; c's offer of a0 and a chunk more is deferred. Had it touched a0,
        // y0 would now be the least recently used.
        LedgerFixture.with(capacity(2)).given(history(storedAndReady("a", A4, 0, 1),
                        running("y", Y4, 2), computed("y", 4),
                        new StoreJobScheduled(1, "y", List.of(0), keys(Y4, 0), List.of(2)),
                        registered("c", A8), allocated("c", 5, 6), computed("c", 8),
                        new StoreDeferred("c", List.of(0, 1), TIER_FULL),
                        new StoreJobCompleted(1, "y", true), new ChunksStored(keys(Y4, 0)), xRunning()))
                .when(new ComputeTokens("x", 4))
                .thenEvents(new TokensComputed("x", 4), new ChunksEvicted(keys(A4, 0)),
                        new StoreJobScheduled(2, "x", List.of(0), keys(X8, 0), List.of(9)));
    }

    @Test
    void anOfferTheTierHoldsWholeMakesNoJobButMovesTheCursor() {
        List<Integer> c12 = tokens(1, 12);
        LedgerFixture.with(B4).given(history(storedAndReady("a", A8, 0, 1, 2),
                        registered("c", c12), allocated("c", 5, 6, 7)))
                .when(new ComputeTokens("c", 8), new ComputeTokens("c", 4))
                .thenEvents(new TokensComputed("c", 8), new TokensComputed("c", 12),
                        new StoreJobScheduled(1, "c", List.of(2), keys(c12, 2), List.of(7)));
    }

    @Test
    void anOfferTheTierHoldsWholeTouchesItsChunks() {
        // a0 is older than y0; c's offer of a0 touches it, so y0 becomes the least recently used.
        LedgerFixture.with(capacity(2)).given(history(storedAndReady("a", A4, 0, 1), storedAndReady("y", Y4, 1, 2),
                        registered("c", A4), allocated("c", 5), xRunning()))
                .when(new ComputeTokens("c", 4), new ComputeTokens("x", 4))
                .thenEvents(new TokensComputed("c", 4), new TokensComputed("x", 4), new ChunksEvicted(keys(Y4, 0)),
                        new StoreJobScheduled(2, "x", List.of(0), keys(X8, 0), List.of(9)));
    }

    @Test
    void aScheduledOfferTouchesTheChunksTheTierAlreadyHeld() {
        // a0 is older than y0; c's offer of a0 and chunk 1 touches a0, so y0 becomes the least recently used.
        LedgerFixture.with(capacity(3)).given(history(storedAndReady("a", A4, 0, 1), storedAndReady("y", Y4, 1, 2),
                        registered("c", A8), allocated("c", 5, 6), xRunning()))
                .when(new ComputeTokens("c", 8), new ComputeTokens("x", 4))
                .thenEvents(new TokensComputed("c", 8),
                        new StoreJobScheduled(2, "c", List.of(1), keys(A8, 1), List.of(6)),
                        new TokensComputed("x", 4), new ChunksEvicted(keys(Y4, 0)),
                        new StoreJobScheduled(3, "x", List.of(0), keys(X8, 0), List.of(9)));
    }

    @Test
    void aPartlyHeldOfferStoresOnlyTheChunksTheTierLacks() {
        LedgerFixture.with(B4).given(history(storedAndReady("a", A4, 0, 1), registered("c", A8), allocated("c", 5, 6)))
                .when(new ComputeTokens("c", 8))
                .thenEvents(new TokensComputed("c", 8),
                        new StoreJobScheduled(1, "c", List.of(1), keys(A8, 1), List.of(6)));
    }

    @Test
    void aTierOfCapacityZeroDefersEveryOffer() {
        LedgerFixture.with(capacity(0)).given(running("r", A8, 1, 2))
                .when(new ComputeTokens("r", 8))
                .thenEvents(new TokensComputed("r", 8), new StoreDeferred("r", List.of(0, 1), TIER_FULL));
    }

    @Test
    void theTerminalCommandMakesTheDeferredOfferAgain() {
        LedgerFixture.with(capacity(1)).given(history(aWriting(), xRunning(), computed("x", 4),
                        new StoreDeferred("x", List.of(0), TIER_FULL),
                        new StoreJobCompleted(0, "a", true), new ChunksStored(keys(A4, 0))))
                .when(new AbortRequest("x"))
                .thenEvents(new RequestAborted("x"), new ChunksEvicted(keys(A4, 0)),
                        new StoreJobScheduled(1, "x", List.of(0), keys(X8, 0), List.of(9)),
                        new BlocksReleased("x", List.of(9)));
    }

    @Test
    void aTerminalCommandThatCannotMakeRoomDefersWithItsOwnEventFirst() {
        LedgerFixture.with(capacity(1)).given(history(aWriting(), xRunning(), computed("x", 4),
                        new StoreDeferred("x", List.of(0), TIER_FULL)))
                .when(new FinishRequest("x", FinishReason.STOPPED))
                .thenEvents(new RequestFinished("x", FinishReason.STOPPED),
                        new StoreDeferred("x", List.of(0), TIER_FULL), new BlocksReleased("x", List.of(9)));
    }

    @Test
    void noOfferIsMadeAfterTheTerminalCommand() {
        LedgerFixture.with(capacity(1)).given(history(aWriting(), xRunning(), computed("x", 4),
                        new StoreDeferred("x", List.of(0), TIER_FULL),
                        new RequestFinished("x", FinishReason.STOPPED),
                        new StoreDeferred("x", List.of(0), TIER_FULL), new BlocksReleased("x", List.of(9))))
                .when(new CompleteTransfer(0))
                .thenEvents(new StoreJobCompleted(0, "a", true), new ChunksStored(keys(A4, 0)));
    }
}
