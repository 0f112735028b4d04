package io.kvledger.domain.decision;

import static io.kvledger.domain.decision.EngineFixtures.A8;
import static io.kvledger.domain.decision.EngineFixtures.B10;
import static io.kvledger.domain.decision.EngineFixtures.B4;
import static io.kvledger.domain.decision.EngineFixtures.B4_DELAY_FREE;
import static io.kvledger.domain.decision.EngineFixtures.P12;
import static io.kvledger.domain.decision.EngineFixtures.X8;
import static io.kvledger.domain.decision.EngineFixtures.bLoadingFromA;
import static io.kvledger.domain.decision.EngineFixtures.computed;
import static io.kvledger.domain.decision.EngineFixtures.configured;
import static io.kvledger.domain.decision.EngineFixtures.history;
import static io.kvledger.domain.decision.EngineFixtures.keys;
import static io.kvledger.domain.decision.EngineFixtures.registered;
import static io.kvledger.domain.decision.EngineFixtures.rejected;
import static io.kvledger.domain.decision.EngineFixtures.rejectedJob;
import static io.kvledger.domain.decision.EngineFixtures.running;
import static io.kvledger.domain.decision.EngineFixtures.storedAndReady;
import static io.kvledger.domain.decision.EngineFixtures.tokens;
import static io.kvledger.domain.event.RejectionCode.INVALID_STATE;
import static io.kvledger.domain.event.RejectionCode.STALE_JOB;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.ResetCache;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.testkit.LedgerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Contract section 4, ResetCache: jobs in flight are flushed and count as not done, cursors return to 0,
 * the tier is emptied silently, fences are lifted, held blocks of terminated requests are released,
 * and later completions of older jobs are STALE_JOB.
 */
class ResetCacheTest {

    /** b loads a's chunks with job 1 (blocks 5, 6); x stores its chunk 0 with job 2 (block 9). */
    private static List<EngineEvent> aLoadAndAStoreInFlight() {
        return history(configured(B4), bLoadingFromA(), running("x", X8, 9), computed("x", 4),
                new StoreJobScheduled(2, "x", List.of(0), keys(X8, 0), List.of(9)));
    }

    @Test
    void aResetWithNothingInFlightOnlyNamesTheNextJobId() {
        LedgerFixture.with(B4).given(storedAndReady("a", A8, 0, 1, 2))
                .when(new ResetCache())
                .thenEvents(new CacheReset(1));
    }

    @Test
    void aResetOfANewEngineNamesJobZero() {
        LedgerFixture.with(B4)
                .when(new ResetCache(), new ResetCache())
                .thenEvents(new CacheReset(0), new CacheReset(0));
    }

    @Test
    void aResetFlushesEveryJobInFlightInOneFlushRequired() {
        LedgerFixture.fromHistory(aLoadAndAStoreInFlight())
                .when(new ResetCache())
                .thenEvents(new CacheReset(3), new FlushRequired(List.of(1L, 2L), List.of(5, 6, 9)));
    }

    @Test
    void completionsOfJobsBelowTheResetAreStaleJob() {
        // Job 0 had already ended before the reset: STALE_JOB comes before JOB_ALREADY_COMPLETE.
        LedgerFixture.fromHistory(history(aLoadAndAStoreInFlight(), new CacheReset(3),
                        new FlushRequired(List.of(1L, 2L), List.of(5, 6, 9))))
                .when(new CompleteTransfer(1), new CompleteTransfer(2, false), new CompleteTransfer(0))
                .thenEvents(rejectedJob(1, STALE_JOB, 1L), rejectedJob(2, STALE_JOB, 2L),
                        rejectedJob(3, STALE_JOB, 0L));
    }

    @Test
    void aLoadingRequestBecomesRunningWithCAtItsGpuHitAndItsCursorAtZero() {
        LedgerFixture.with(B4).given(bLoadingFromA())
                .when(new ResetCache(), new ComputeTokens("b", 4))
                .thenEvents(new CacheReset(2), new FlushRequired(List.of(1L), List.of(5, 6)),
                        new TokensComputed("b", 4),
                        new StoreJobScheduled(2, "b", List.of(0), keys(A8, 0), List.of(5)));
    }

    @Test
    void aLoadingRequestWithAGpuHitIsRunningWithCEqualToThatHit() {
        // b hit 4 tokens on the GPU and loads chunks 1, 2: after the reset c = L = 4.
        LedgerFixture.with(B4).given(history(storedAndReady("a", P12, 0, 1, 2, 3), registered("b", tokens(1, 14)),
                        new PrefixMatched("b", 4, 8, List.of(1, 2)), new BlocksAllocated("b", List.of(20, 21, 22, 23), 8),
                        new LoadJobScheduled(1, "b", List.of(1, 2), keys(P12, 1, 2), List.of(21, 22))))
                .when(new ResetCache(), new ComputeTokens("b", 4))
                .thenEvents(new CacheReset(2), new FlushRequired(List.of(1L), List.of(21, 22)),
                        new TokensComputed("b", 8),
                        new StoreJobScheduled(2, "b", List.of(0, 1), keys(P12, 0, 1), List.of(20, 21)));
    }

    @Test
    void cursorsReturnToZeroAndJobIdsGoOn() {
        LedgerFixture.with(B4).given(history(running("r", P12, 1, 2, 3), computed("r", 8),
                        new StoreJobScheduled(0, "r", List.of(0, 1), keys(P12, 0, 1), List.of(1, 2)),
                        new StoreJobCompleted(0, "r", true), new ChunksStored(keys(P12, 0, 1))))
                .when(new ResetCache(), new ComputeTokens("r", 4), new CompleteTransfer(1))
                .thenEvents(new CacheReset(1), new TokensComputed("r", 12),
                        new StoreJobScheduled(1, "r", List.of(0, 1, 2), keys(P12, 0, 1, 2), List.of(1, 2, 3)),
                        new StoreJobCompleted(1, "r", true),
                        new ChunksStored(keys(P12, 0, 1, 2)));
    }

    @Test
    void theTierIsEmptiedWithoutChunksEvicted() {
        LedgerFixture.with(B4).given(history(storedAndReady("a", A8, 0, 1, 2), registered("b", B10)))
                .when(new ResetCache(), new MatchPrefix("b"))
                .thenEvents(new CacheReset(1), new PrefixMatched("b", 0, 0, List.of()));
    }

    @Test
    void anUnusedMatchCannotLoadAfterTheReset() {
        LedgerFixture.with(B4).given(history(storedAndReady("a", A8, 0, 1, 2), registered("b", B10),
                        new PrefixMatched("b", 0, 8, List.of(0, 1))))
                .when(new ResetCache(), new AllocateBlocks("b", List.of(5, 6, 7), 8))
                .thenEvents(new CacheReset(1), rejected(2, "AllocateBlocks", INVALID_STATE, "b"));
    }

    @Test
    void fencesAreLifted() {
        LedgerFixture.with(B4).given(history(running("r", A8, 1, 2), computed("r", 8),
                        new StoreJobScheduled(0, "r", List.of(0, 1), keys(A8, 0, 1), List.of(1, 2)),
                        new RequestFinished("r", FinishReason.STOPPED), new BlocksReleased("r", List.of(1, 2)),
                        registered("q", A8)))
                .when(new ResetCache(), new AllocateBlocks("q", List.of(1, 2)))
                .thenEvents(new CacheReset(1), new FlushRequired(List.of(0L), List.of(1, 2)),
                        new BlocksAllocated("q", List.of(1, 2), 0));
    }

    @Test
    void blocksStillHeldForTerminatedRequestsAreReleasedInRegistrationOrder() {
        List<Integer> p4 = tokens(1, 4);
        List<Integer> q4 = tokens(101, 104);
        LedgerFixture.with(B4_DELAY_FREE).given(history(running("p", p4, 1), running("q", q4, 2),
                        computed("p", 4), new StoreJobScheduled(0, "p", List.of(0), keys(p4, 0), List.of(1)),
                        computed("q", 4), new StoreJobScheduled(1, "q", List.of(0), keys(q4, 0), List.of(2)),
                        new RequestFinished("q", FinishReason.STOPPED), new RequestFinished("p", FinishReason.STOPPED)))
                .when(new ResetCache())
                .thenEvents(new CacheReset(2), new FlushRequired(List.of(0L, 1L), List.of(1, 2)),
                        new BlocksReleased("p", List.of(1)), new BlocksReleased("q", List.of(2)));
    }

    @Test
    void theDestinationBlocksOfAnAbortedLoadAreReleasedAtTheReset() {
        LedgerFixture.with(B4).given(history(bLoadingFromA(), new RequestAborted("b"),
                        new BlocksReleased("b", List.of(7))))
                .when(new ResetCache())
                .thenEvents(new CacheReset(2), new FlushRequired(List.of(1L), List.of(5, 6)),
                        new BlocksReleased("b", List.of(5, 6)));
    }
}
