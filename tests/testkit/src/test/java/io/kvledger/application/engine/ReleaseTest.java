package io.kvledger.application.engine;

import static io.kvledger.application.engine.EngineFixtures.A4;
import static io.kvledger.application.engine.EngineFixtures.A8;
import static io.kvledger.application.engine.EngineFixtures.B10;
import static io.kvledger.application.engine.EngineFixtures.B4;
import static io.kvledger.application.engine.EngineFixtures.B4_DELAY_FREE;
import static io.kvledger.application.engine.EngineFixtures.X8;
import static io.kvledger.application.engine.EngineFixtures.bLoadingFromA;
import static io.kvledger.application.engine.EngineFixtures.computed;
import static io.kvledger.application.engine.EngineFixtures.configured;
import static io.kvledger.application.engine.EngineFixtures.exactly;
import static io.kvledger.application.engine.EngineFixtures.history;
import static io.kvledger.application.engine.EngineFixtures.keys;
import static io.kvledger.application.engine.EngineFixtures.newFixture;
import static io.kvledger.application.engine.EngineFixtures.registered;
import static io.kvledger.application.engine.EngineFixtures.rejected;
import static io.kvledger.application.engine.EngineFixtures.running;
import static io.kvledger.application.engine.EngineFixtures.step;
import static io.kvledger.application.engine.EngineFixtures.storedAndReady;
import static io.kvledger.application.engine.EngineFixtures.storing;
import static io.kvledger.application.engine.EngineFixtures.tokens;
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
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Contract section 4, Release at abort and finish: FENCE (release at once, fence the sources of stores
 * in flight, {@code FlushRequired} before handing a fenced block out) and DELAY_FREE.
 */
class ReleaseTest {

    private RuleFixture fixture;

    @BeforeEach
    void setUp() {
        fixture = newFixture();
    }

    /** r (tokens 1..8, blocks 1, 2) computed its prompt, store job 0 in flight, and sampled token 9. */
    private static List<Object> rStoring(EngineConfig config) {
        return history(configured(config), storing("r", A8, 0, 1, 2), new TokensAppended("r", 9, List.of(9)));
    }

    /** FENCE: r finished with its store in flight; blocks 1, 2 are released and fenced by job 0. */
    private static List<Object> rFinishedWhileStoring() {
        return history(rStoring(B4), new RequestFinished("r", FinishReason.STOPPED),
                new BlocksReleased("r", List.of(1, 2)), registered("p", A8), registered("q", A8));
    }

    /** Capacity 1: a (tokens 1..4, block 1) stored chunk 0 with job 0, now ready; x's offer was deferred. */
    private static List<Object> xDeferredThenRoom(EngineConfig config) {
        return history(configured(config.withCpuCapacityChunks(1)), running("a", A4, 1), computed("a", 4),
                new StoreJobScheduled(0, "a", List.of(0), keys(A4, 0), List.of(1)), running("x", X8, 9),
                computed("x", 4), new StoreDeferred("x", List.of(0), TIER_FULL),
                new StoreJobCompleted(0, "a", true), new ChunksStored(keys(A4, 0)), registered("q", A8));
    }

    @Test
    void fenceReleasesEveryBlockAtOnceAtFinish() {
        fixture.given(rStoring(B4))
                .when(step(new FinishRequest("r", FinishReason.STOPPED)))
                .expectEventsMatching(exactly(new RequestFinished("r", FinishReason.STOPPED), new BlocksReleased("r", List.of(1, 2))));
    }

    @Test
    void aFencedBlockHandedOutIsAnsweredFirstByAFlushNamingOnlyTheFencedBlocks() {
        fixture.given(rFinishedWhileStoring())
                .when(step(new AllocateBlocks("q", List.of(7, 2))))
                .expectEventsMatching(exactly(new FlushRequired(List.of(0L), List.of(2)), new BlocksAllocated("q", List.of(7, 2), 0)));
    }

    @Test
    void aFencedBlockHandedOutAgainBeforeItsStoreEndsGetsAnotherFlush() {
        fixture.given(rFinishedWhileStoring())
                .when(step(new AllocateBlocks("p", List.of(1)), new AllocateBlocks("q", List.of(1))))
                .expectEventsMatching(exactly(new FlushRequired(List.of(0L), List.of(1)), new BlocksAllocated("p", List.of(1), 0),
                        new FlushRequired(List.of(0L), List.of(1)), new BlocksAllocated("q", List.of(1), 0)));
    }

    @Test
    void theFenceLiftsWhenTheStoreEnds() {
        fixture.given(rFinishedWhileStoring())
                .when(step(new CompleteTransfer(0), new AllocateBlocks("q", List.of(1, 2))))
                .expectEventsMatching(exactly(new StoreJobCompleted(0, "r", true), new ChunksStored(keys(A8, 0, 1)),
                        new BlocksAllocated("q", List.of(1, 2), 0)));
    }

    @Test
    void theFenceLiftsWhenTheStoreFailsToo() {
        fixture.given(rFinishedWhileStoring())
                .when(step(new CompleteTransfer(0, false), new AllocateBlocks("q", List.of(1, 2))))
                .expectEventsMatching(exactly(new StoreJobCompleted(0, "r", false), new BlocksAllocated("q", List.of(1, 2), 0)));
    }

    @Test
    void theFlushListsFencingJobsAscendingAndBlocksInAllocationOrderWithoutRepeats() {
        fixture.given(history(configured(B4), running("r", A8, 1, 2), computed("r", 4),
                        new StoreJobScheduled(0, "r", List.of(0), keys(A8, 0), List.of(1)), computed("r", 8),
                        new StoreJobScheduled(1, "r", List.of(1), keys(A8, 1), List.of(2)),
                        new RequestAborted("r"), new BlocksReleased("r", List.of(1, 2)), registered("q", A8)))
                .when(step(new AllocateBlocks("q", List.of(2, 9, 1, 2))))
                .expectEventsMatching(exactly(new FlushRequired(List.of(0L, 1L), List.of(2, 1)),
                        new BlocksAllocated("q", List.of(2, 9, 1, 2), 0)));
    }

    @Test
    void theStoreMadeByTheTerminalCommandItselfIsFenced() {
        fixture.given(xDeferredThenRoom(B4))
                .when(step(new AbortRequest("x"), new AllocateBlocks("q", List.of(9))))
                .expectEventsMatching(exactly(new RequestAborted("x"), new ChunksEvicted(keys(A4, 0)),
                        new StoreJobScheduled(1, "x", List.of(0), keys(X8, 0), List.of(9)),
                        new BlocksReleased("x", List.of(9)),
                        new FlushRequired(List.of(1L), List.of(9)), new BlocksAllocated("q", List.of(9), 0)));
    }

    @Test
    void storesFlushedAtAnEarlierPreemptionAreFencedAtAbort() {
        fixture.given(history(rStoring(B4), new RequestPreempted("r"), new FlushRequired(List.of(0L), List.of(1, 2)),
                        new BlocksReleased("r", List.of(1, 2)), new BlocksAllocated("r", List.of(5, 6), 0),
                        registered("q", A8)))
                .when(step(new AbortRequest("r"), new AllocateBlocks("q", List.of(5, 1))))
                .expectEventsMatching(exactly(new RequestAborted("r"), new BlocksReleased("r", List.of(5, 6)),
                        new FlushRequired(List.of(0L), List.of(1)), new BlocksAllocated("q", List.of(5, 1), 0)));
    }

    @Test
    void anAbortWithAnEmptyTableReleasesNothingButStillFencesItsStores() {
        fixture.given(history(rStoring(B4), new RequestPreempted("r"), new FlushRequired(List.of(0L), List.of(1, 2)),
                        new BlocksReleased("r", List.of(1, 2)), registered("q", A8)))
                .when(step(new AbortRequest("r"), new AllocateBlocks("q", List.of(2))))
                .expectEventsMatching(exactly(new RequestAborted("r"), new FlushRequired(List.of(0L), List.of(2)),
                        new BlocksAllocated("q", List.of(2), 0)));
    }

    @Test
    void aLoadThatHandsOutAFencedBlockIsAnsweredFirstByAFlush() {
        fixture.given(history(configured(B4), running("x", X8, 9), storedAndReady("a", A8, 0, 1, 2),
                        computed("x", 4), new StoreJobScheduled(1, "x", List.of(0), keys(X8, 0), List.of(9)),
                        new RequestAborted("x"), new BlocksReleased("x", List.of(9)), registered("b", B10),
                        new PrefixMatched("b", 0, 8, List.of(0, 1))))
                .when(step(new AllocateBlocks("b", List.of(9, 6, 7), 8)))
                .expectEventsMatching(exactly(new FlushRequired(List.of(1L), List.of(9)), new BlocksAllocated("b", List.of(9, 6, 7), 8),
                        new LoadJobScheduled(2, "b", List.of(0, 1), keys(A8, 0, 1), List.of(9, 6))));
    }

    @Test
    void fenceKeepsTheBlocksALoadIsWritingIntoUntilTheLoadEnds() {
        fixture.given(history(configured(B4), bLoadingFromA()))
                .when(step(new AbortRequest("b"), new CompleteTransfer(1)))
                .expectEventsMatching(exactly(new RequestAborted("b"), new BlocksReleased("b", List.of(7)),
                        new LoadJobCompleted(1, "b", true), new BlocksReleased("b", List.of(5, 6))));
    }

    /** b's table names block 5 twice; its load writes into the first copy only (table[0..2) = [5, 6]). */
    private static List<Object> bLoadingIntoARepeatedBlock(List<Integer> table) {
        return history(configured(B4), storedAndReady("a", A8, 0, 1, 2), registered("b", B10),
                new PrefixMatched("b", 0, 8, List.of(0, 1)), new BlocksAllocated("b", table, 8),
                new LoadJobScheduled(1, "b", List.of(0, 1), keys(A8, 0, 1), List.of(5, 6)));
    }

    @Test
    void fenceHoldsABlockTheLoadWritesIntoAtEveryPositionOfTheTable() {
        fixture.given(bLoadingIntoARepeatedBlock(List.of(5, 6, 5)))
                .when(step(new AbortRequest("b")))
                .expectEventsMatching(exactly(new RequestAborted("b")));
    }

    @Test
    void fenceReleasesTheOtherBlocksAtOnceAndEveryCopyOfTheLoadedOnesWhenTheLoadEnds() {
        fixture.given(bLoadingIntoARepeatedBlock(List.of(5, 6, 7, 5)))
                .when(step(new AbortRequest("b"), new CompleteTransfer(1)))
                .expectEventsMatching(exactly(new RequestAborted("b"), new BlocksReleased("b", List.of(7)),
                        new LoadJobCompleted(1, "b", true), new BlocksReleased("b", List.of(5, 6, 5))));
    }

    @Test
    void aFailedLoadOfAnAbortedRequestDropsItsChunksThenReleasesAndTheRequestStaysAborted() {
        fixture.given(history(configured(B4), bLoadingFromA(), new RequestAborted("b"),
                        new BlocksReleased("b", List.of(7))))
                .when(step(new CompleteTransfer(1, false), new ComputeTokens("b", 1)))
                .expectEventsMatching(exactly(new LoadJobCompleted(1, "b", false), new ChunksEvicted(keys(A8, 1, 0)),
                        new BlocksReleased("b", List.of(5, 6)), rejected(2, "ComputeTokens", REQUEST_TERMINATED, "b")));
    }

    @Test
    void whenTheLoadWritesIntoEveryBlockNothingIsReleasedAtAbort() {
        fixture.given(history(configured(B4), running("a", A8, 1, 2), computed("a", 8),
                        new StoreJobScheduled(0, "a", List.of(0, 1), keys(A8, 0, 1), List.of(1, 2)),
                        new StoreJobCompleted(0, "a", true), new ChunksStored(keys(A8, 0, 1)), registered("b", A8),
                        new PrefixMatched("b", 0, 8, List.of(0, 1)), new BlocksAllocated("b", List.of(5, 6), 8),
                        new LoadJobScheduled(1, "b", List.of(0, 1), keys(A8, 0, 1), List.of(5, 6))))
                .when(step(new AbortRequest("b")))
                .expectEventsMatching(exactly(new RequestAborted("b")));
    }

    @Test
    void delayFreeReleasesOnlyWhenTheStoreCompletes() {
        fixture.given(rStoring(B4_DELAY_FREE))
                .when(step(new FinishRequest("r", FinishReason.STOPPED), new CompleteTransfer(0)))
                .expectEventsMatching(exactly(new RequestFinished("r", FinishReason.STOPPED), new StoreJobCompleted(0, "r", true),
                        new ChunksStored(keys(A8, 0, 1)), new BlocksReleased("r", List.of(1, 2))));
    }

    @Test
    void delayFreeWaitsForEveryStoreOfTheRequest() {
        fixture.given(history(configured(B4_DELAY_FREE), running("r", A8, 1, 2), computed("r", 4),
                        new StoreJobScheduled(0, "r", List.of(0), keys(A8, 0), List.of(1)), computed("r", 8),
                        new StoreJobScheduled(1, "r", List.of(1), keys(A8, 1), List.of(2)),
                        new RequestFinished("r", FinishReason.LENGTH)))
                .when(step(new CompleteTransfer(1), new CompleteTransfer(0, false)))
                .expectEventsMatching(exactly(new StoreJobCompleted(1, "r", true), new ChunksStored(keys(A8, 1)),
                        new StoreJobCompleted(0, "r", false), new BlocksReleased("r", List.of(1, 2))));
    }

    @Test
    void delayFreeAlsoWaitsForStoresFlushedAtAnEarlierPreemption() {
        fixture.given(history(rStoring(B4_DELAY_FREE), new RequestPreempted("r"),
                        new FlushRequired(List.of(0L), List.of(1, 2)), new BlocksReleased("r", List.of(1, 2)),
                        new BlocksAllocated("r", List.of(5, 6), 0)))
                .when(step(new FinishRequest("r", FinishReason.STOPPED), new CompleteTransfer(0)))
                .expectEventsMatching(exactly(new RequestFinished("r", FinishReason.STOPPED), new StoreJobCompleted(0, "r", true),
                        new ChunksStored(keys(A8, 0, 1)), new BlocksReleased("r", List.of(5, 6))));
    }

    @Test
    void delayFreeReleasesAtOnceWhenNothingIsInFlight() {
        fixture.given(history(rStoring(B4_DELAY_FREE), new StoreJobCompleted(0, "r", true),
                        new ChunksStored(keys(A8, 0, 1))))
                .when(step(new AbortRequest("r")))
                .expectEventsMatching(exactly(new RequestAborted("r"), new BlocksReleased("r", List.of(1, 2))));
    }

    @Test
    void delayFreeHoldsTheBlocksOfAStoreMadeByTheTerminalCommand() {
        fixture.given(xDeferredThenRoom(B4_DELAY_FREE))
                .when(step(new AbortRequest("x"), new CompleteTransfer(1)))
                .expectEventsMatching(exactly(new RequestAborted("x"), new ChunksEvicted(keys(A4, 0)),
                        new StoreJobScheduled(1, "x", List.of(0), keys(X8, 0), List.of(9)),
                        new StoreJobCompleted(1, "x", true), new ChunksStored(keys(X8, 0)),
                        new BlocksReleased("x", List.of(9))));
    }

    @Test
    void delayFreeReleasesTheWholeTableOfAnAbortedLoadWhenTheLoadEnds() {
        fixture.given(history(configured(B4_DELAY_FREE), bLoadingFromA()))
                .when(step(new AbortRequest("b"), new CompleteTransfer(1)))
                .expectEventsMatching(exactly(new RequestAborted("b"), new LoadJobCompleted(1, "b", true),
                        new BlocksReleased("b", List.of(5, 6, 7))));
    }
}
