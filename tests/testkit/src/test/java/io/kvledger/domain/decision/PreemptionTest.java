package io.kvledger.domain.decision;

import static io.kvledger.domain.decision.EngineFixtures.A8;
import static io.kvledger.domain.decision.EngineFixtures.B4;
import static io.kvledger.domain.decision.EngineFixtures.computed;
import static io.kvledger.domain.decision.EngineFixtures.configured;
import static io.kvledger.domain.decision.EngineFixtures.history;
import static io.kvledger.domain.decision.EngineFixtures.keys;
import static io.kvledger.domain.decision.EngineFixtures.matched;
import static io.kvledger.domain.decision.EngineFixtures.registered;
import static io.kvledger.domain.decision.EngineFixtures.running;
import static io.kvledger.domain.decision.EngineFixtures.storedAndReady;
import static io.kvledger.domain.decision.EngineFixtures.storing;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.testkit.LedgerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Contract section 4, Preemption: {@code c} becomes 0, the cursor is kept, stores in flight are flushed,
 * the whole table is released, and nothing is fenced.
 */
class PreemptionTest {

    /** r (tokens 1..8, blocks 1, 2) computed its prompt: store job 0 of chunks 0, 1 is in flight. */
    private static List<EngineEvent> rStoring() {
        return history(configured(B4), storing("r", A8, 0, 1, 2));
    }

    /** r preempted while its store job 0 (blocks 1, 2) was in flight. */
    private static List<EngineEvent> rPreemptedWhileStoring() {
        return history(rStoring(), new RequestPreempted("r"), new FlushRequired(List.of(0L), List.of(1, 2)),
                new BlocksReleased("r", List.of(1, 2)));
    }

    @Test
    void preemptionFlushesTheStoresInFlightAndReleasesTheWholeTable() {
        LedgerFixture.fromHistory(rStoring())
                .when(new PreemptRequest("r"))
                .thenEvents(new RequestPreempted("r"), new FlushRequired(List.of(0L), List.of(1, 2)),
                        new BlocksReleased("r", List.of(1, 2)));
    }

    @Test
    void preemptionWithNothingInFlightHasNoFlush() {
        LedgerFixture.with(B4).given(storedAndReady("r", A8, 0, 1, 2))
                .when(new PreemptRequest("r"))
                .thenEvents(new RequestPreempted("r"), new BlocksReleased("r", List.of(1, 2)));
    }

    @Test
    void preemptionOfAnEmptyTableReleasesNothing() {
        LedgerFixture.with(B4).given(registered("r", A8), matched("r"), new BlocksAllocated("r", List.of(), 0))
                .when(new PreemptRequest("r"))
                .thenEvents(new RequestPreempted("r"));
    }

    @Test
    void theFlushNamesEveryStoreInFlightWithJobIdsAscending() {
        LedgerFixture.with(B4).given(history(running("r", A8, 1, 2), computed("r", 4),
                        new StoreJobScheduled(0, "r", List.of(0), keys(A8, 0), List.of(1)), computed("r", 8),
                        new StoreJobScheduled(1, "r", List.of(1), keys(A8, 1), List.of(2))))
                .when(new PreemptRequest("r"))
                .thenEvents(new RequestPreempted("r"), new FlushRequired(List.of(0L, 1L), List.of(1, 2)),
                        new BlocksReleased("r", List.of(1, 2)));
    }

    @Test
    void preemptionMakesCZeroAndKeepsTheCursor() {
        // The store failed, so the tier lacks chunks 0, 1; a cursor back at 0 would store them again.
        LedgerFixture.fromHistory(history(rStoring(), new StoreJobCompleted(0, "r", false), new RequestPreempted("r"),
                        new BlocksReleased("r", List.of(1, 2))))
                .when(new AllocateBlocks("r", List.of(3, 4)), new ComputeTokens("r", 8))
                .thenEvents(new BlocksAllocated("r", List.of(3, 4), 0), new TokensComputed("r", 8));
    }

    @Test
    void preemptionDoesNotFenceTheBlocksOfItsStores() {
        LedgerFixture.fromHistory(history(rPreemptedWhileStoring(), registered("q", A8)))
                .when(new AllocateBlocks("q", List.of(1, 2)))
                .thenEvents(new BlocksAllocated("q", List.of(1, 2), 0));
    }

    @Test
    void aFlushedStoreStillCompletesAfterThePreemption() {
        LedgerFixture.fromHistory(rPreemptedWhileStoring())
                .when(new CompleteTransfer(0))
                .thenEvents(new StoreJobCompleted(0, "r", true), new ChunksStored(keys(A8, 0, 1)));
    }
}
