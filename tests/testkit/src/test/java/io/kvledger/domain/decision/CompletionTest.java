package io.kvledger.domain.decision;

import static io.kvledger.domain.decision.EngineFixtures.A8;
import static io.kvledger.domain.decision.EngineFixtures.B10;
import static io.kvledger.domain.decision.EngineFixtures.B4;
import static io.kvledger.domain.decision.EngineFixtures.X8;
import static io.kvledger.domain.decision.EngineFixtures.computed;
import static io.kvledger.domain.decision.EngineFixtures.configured;
import static io.kvledger.domain.decision.EngineFixtures.history;
import static io.kvledger.domain.decision.EngineFixtures.keys;
import static io.kvledger.domain.decision.EngineFixtures.registered;
import static io.kvledger.domain.decision.EngineFixtures.rejectedJob;
import static io.kvledger.domain.decision.EngineFixtures.running;
import static io.kvledger.domain.decision.EngineFixtures.storing;
import static io.kvledger.domain.decision.EngineFixtures.tokens;
import static io.kvledger.domain.event.RejectionCode.INVALID_ARGUMENT;
import static io.kvledger.domain.event.RejectionCode.JOB_ALREADY_COMPLETE;
import static io.kvledger.domain.event.RejectionCode.UNKNOWN_JOB;

import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.event.TransferAcknowledged;
import io.kvledger.testkit.LedgerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Contract section 4, Completion: counting over {@code workers}, failed stores and loads, job codes. */
class CompletionTest {

    /** r (tokens 1..8, blocks 1, 2) computed its prompt: store job 0 of chunks 0, 1 is in flight. */
    private static List<EngineEvent> rStoring(EngineConfig config) {
        return history(configured(config), storing("r", A8, 0, 1, 2));
    }

    /** With two workers: a's chunks ready (job 0, acknowledged once); b loads them with job 1. */
    private static List<EngineEvent> bLoadingWithTwoWorkers() {
        return history(configured(B4.withWorkers(2)), running("a", A8, 1, 2), computed("a", 8),
                new StoreJobScheduled(0, "a", List.of(0, 1), keys(A8, 0, 1), List.of(1, 2)),
                new TransferAcknowledged(0, "a", true), new StoreJobCompleted(0, "a", true),
                new ChunksStored(keys(A8, 0, 1)), registered("b", B10), new PrefixMatched("b", 0, 8, List.of(0, 1)),
                new BlocksAllocated("b", List.of(5, 6, 7), 8),
                new LoadJobScheduled(1, "b", List.of(0, 1), keys(A8, 0, 1), List.of(5, 6)));
    }

    @Test
    void aStoreThatSucceedsMakesItsChunksLoadable() {
        LedgerFixture.fromHistory(history(rStoring(B4), registered("b", B10)))
                .when(new CompleteTransfer(0), new MatchPrefix("b"))
                .thenEvents(new StoreJobCompleted(0, "r", true), new ChunksStored(keys(A8, 0, 1)),
                        new PrefixMatched("b", 0, 8, List.of(0, 1)));
    }

    @Test
    void withTwoWorkersAJobEndsAtItsSecondCompletionAndAThirdIsJobAlreadyComplete() {
        LedgerFixture.fromHistory(rStoring(B4.withWorkers(2)))
                .when(new CompleteTransfer(0), new CompleteTransfer(0), new CompleteTransfer(0))
                .thenEvents(new TransferAcknowledged(0, "r", true),
                        new StoreJobCompleted(0, "r", true), new ChunksStored(keys(A8, 0, 1)),
                        rejectedJob(3, JOB_ALREADY_COMPLETE, 0L));
    }

    @Test
    void withThreeWorkersEachEarlierCompletionIsAcknowledged() {
        LedgerFixture.fromHistory(rStoring(B4.withWorkers(3)))
                .when(new CompleteTransfer(0), new CompleteTransfer(0), new CompleteTransfer(0))
                .thenEvents(new TransferAcknowledged(0, "r", true), new TransferAcknowledged(0, "r", true),
                        new StoreJobCompleted(0, "r", true), new ChunksStored(keys(A8, 0, 1)));
    }

    @Test
    void aJobFailsIfAnEarlierCompletionSaidFalse() {
        LedgerFixture.fromHistory(rStoring(B4.withWorkers(2)))
                .when(new CompleteTransfer(0, false), new CompleteTransfer(0, true))
                .thenEvents(new TransferAcknowledged(0, "r", false), new StoreJobCompleted(0, "r", false));
    }

    @Test
    void aJobFailsIfItsLastCompletionSaysFalse() {
        LedgerFixture.fromHistory(rStoring(B4.withWorkers(2)))
                .when(new CompleteTransfer(0, true), new CompleteTransfer(0, false))
                .thenEvents(new TransferAcknowledged(0, "r", true), new StoreJobCompleted(0, "r", false));
    }

    @Test
    void aFailedStoreDropsItsChunksWithoutAnEvent() {
        LedgerFixture.fromHistory(history(rStoring(B4), registered("b", B10)))
                .when(new CompleteTransfer(0, false), new MatchPrefix("b"))
                .thenEvents(new StoreJobCompleted(0, "r", false), new PrefixMatched("b", 0, 0, List.of()));
    }

    @Test
    void aFailedStoreFreesItsRoomInTheTier() {
        LedgerFixture.fromHistory(history(rStoring(B4.withCpuCapacityChunks(2)), running("x", X8, 9)))
                .when(new CompleteTransfer(0, false), new ComputeTokens("x", 4))
                .thenEvents(new StoreJobCompleted(0, "r", false), new TokensComputed("x", 4),
                        new StoreJobScheduled(1, "x", List.of(0), keys(X8, 0), List.of(9)));
    }

    @Test
    void aFailedStoreIsNotRetried() {
        LedgerFixture.fromHistory(rStoring(B4))
                .when(new CompleteTransfer(0, false), new ComputeTokens("r", 1))
                .thenEvents(new StoreJobCompleted(0, "r", false), new TokensComputed("r", 9));
    }

    @Test
    void withTwoWorkersALoadEndsAtItsSecondCompletion() {
        LedgerFixture.fromHistory(bLoadingWithTwoWorkers())
                .when(new CompleteTransfer(1), new CompleteTransfer(1))
                .thenEvents(new TransferAcknowledged(1, "b", true), new LoadJobCompleted(1, "b", true));
    }

    @Test
    void withTwoWorkersALoadFailsIfEitherCompletionSaidFalse() {
        LedgerFixture.fromHistory(bLoadingWithTwoWorkers())
                .when(new CompleteTransfer(1, false), new CompleteTransfer(1))
                .thenEvents(new TransferAcknowledged(1, "b", false), new LoadJobCompleted(1, "b", false),
                        new ChunksEvicted(keys(A8, 1, 0)));
    }

    @Test
    void jobsMayCompleteOutOfOrder() {
        LedgerFixture.fromHistory(history(rStoring(B4), running("x", X8, 9), computed("x", 4),
                        new StoreJobScheduled(1, "x", List.of(0), keys(X8, 0), List.of(9))))
                .when(new CompleteTransfer(1), new CompleteTransfer(0))
                .thenEvents(new StoreJobCompleted(1, "x", true), new ChunksStored(keys(X8, 0)),
                        new StoreJobCompleted(0, "r", true), new ChunksStored(keys(A8, 0, 1)));
    }

    @Test
    void aCompletionOfAJobNeverScheduledIsUnknownJob() {
        LedgerFixture.fromHistory(rStoring(B4))
                .when(new CompleteTransfer(1), new CompleteTransfer(3))
                .thenEvents(rejectedJob(1, UNKNOWN_JOB, 1L), rejectedJob(2, UNKNOWN_JOB, 3L));
    }

    @Test
    void aCompletionBeforeAnyJobIsUnknownJob() {
        LedgerFixture.with(B4)
                .when(new CompleteTransfer(0))
                .thenEvents(rejectedJob(1, UNKNOWN_JOB, 0L));
    }

    @Test
    void aCompletionOfAnEndedJobIsJobAlreadyComplete() {
        LedgerFixture.fromHistory(history(rStoring(B4), new StoreJobCompleted(0, "r", true), new ChunksStored(keys(A8, 0, 1))))
                .when(new CompleteTransfer(0, false))
                .thenEvents(rejectedJob(1, JOB_ALREADY_COMPLETE, 0L));
    }

    @Test
    void aNegativeJobIdIsInvalidArgument() {
        LedgerFixture.fromHistory(rStoring(B4))
                .when(new CompleteTransfer(-1))
                .thenEvents(rejectedJob(1, INVALID_ARGUMENT, -1L));
    }
}
