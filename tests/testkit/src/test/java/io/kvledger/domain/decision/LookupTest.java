package io.kvledger.domain.decision;

import static io.kvledger.domain.decision.EngineFixtures.A4;
import static io.kvledger.domain.decision.EngineFixtures.A8;
import static io.kvledger.domain.decision.EngineFixtures.B10;
import static io.kvledger.domain.decision.EngineFixtures.B4;
import static io.kvledger.domain.decision.EngineFixtures.B4F2;
import static io.kvledger.domain.decision.EngineFixtures.P12;
import static io.kvledger.domain.decision.EngineFixtures.P16;
import static io.kvledger.domain.decision.EngineFixtures.X8;
import static io.kvledger.domain.decision.EngineFixtures.Y4;
import static io.kvledger.domain.decision.EngineFixtures.allocated;
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
import static io.kvledger.domain.event.DeferReason.CHUNK_BEING_LOADED;
import static io.kvledger.domain.event.DeferReason.CHUNK_WRITE_IN_FLIGHT;
import static io.kvledger.domain.event.DeferReason.TRANSFER_IN_FLIGHT;
import static io.kvledger.domain.event.RejectionCode.INVALID_ARGUMENT;
import static io.kvledger.domain.event.RejectionCode.INVALID_STATE;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.testkit.LedgerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Contract section 4, Lookup ({@code MatchPrefix}): hits, deferrals, {@code c = L}, touches. */
class LookupTest {

    /** Under B4F2: "a" (tokens 1..16, blocks 1..4) stored chunks 0, 1 with job 0; both are ready. */
    private static List<EngineEvent> a16ReadyF2() {
        return history(configured(B4F2), running("a", P16, 1, 2, 3, 4), computed("a", 16),
                new StoreJobScheduled(0, "a", List.of(0, 1), keys(B4F2, P16, 0, 1), List.of(1, 2, 3, 4)),
                new StoreJobCompleted(0, "a", true), new ChunksStored(keys(B4F2, P16, 0, 1)));
    }

    @Test
    void gpuHitTokensNotAMultipleOfTheBlockSizeIsInvalidArgument() {
        LedgerFixture.with(B4).given(registered("r", A8))
                .when(new MatchPrefix("r", 3))
                .thenEvents(rejected(1, "MatchPrefix", INVALID_ARGUMENT, "r"));
    }

    @Test
    void gpuHitTokensAboveNOrBelowZeroIsInvalidArgument() {
        LedgerFixture.with(B4).given(registered("r", A8))
                .when(new MatchPrefix("r", 12), new MatchPrefix("r", -4), new MatchPrefix("r", 8))
                .thenEvents(rejected(1, "MatchPrefix", INVALID_ARGUMENT, "r"),
                        rejected(2, "MatchPrefix", INVALID_ARGUMENT, "r"), new PrefixMatched("r", 8, 0, List.of()));
    }

    @Test
    void aRequestWithAJobInFlightIsDeferredAsTransferInFlight() {
        LedgerFixture.with(B4).given(history(running("r", A8, 1, 2), computed("r", 8),
                        new StoreJobScheduled(0, "r", List.of(0, 1), keys(A8, 0, 1), List.of(1, 2)),
                        new TokensAppended("r", 9, List.of(9)), new RequestPreempted("r"),
                        new FlushRequired(List.of(0L), List.of(1, 2)), new BlocksReleased("r", List.of(1, 2))))
                .when(new MatchPrefix("r"))
                .thenEvents(new PrefixMatchDeferred("r", 0, TRANSFER_IN_FLIGHT));
    }

    @Test
    void fewerThanAChunkOfTokensPastTheGpuHitMatchesNothingWithoutLookingAtTheTier() {
        // F = 2: L = 4 and floor(n/C)*C = 8 leave 4 < C tokens; chunk 0, still being written, is not examined.
        LedgerFixture.with(B4F2).given(history(running("a", P16, 1, 2), computed("a", 8),
                        new StoreJobScheduled(0, "a", List.of(0), keys(B4F2, P16, 0), List.of(1, 2)),
                        registered("b", P12)))
                .when(new MatchPrefix("b", 4))
                .thenEvents(new PrefixMatched("b", 4, 0, List.of()));
    }

    @Test
    void everyConsecutiveReadyChunkIsAHit() {
        LedgerFixture.with(B4).given(history(storedAndReady("a", A8, 0, 1, 2), registered("b", B10)))
                .when(new MatchPrefix("b"))
                .thenEvents(new PrefixMatched("b", 0, 8, List.of(0, 1)));
    }

    @Test
    void hitsStopAtTheFirstChunkTheTierDoesNotHold() {
        // d's chunks 0, 1 failed to store, chunk 2 is ready; e stored chunk 0 again. Chunk 1 is missing.
        LedgerFixture.with(B4).given(history(running("d", P12, 1, 2, 3), computed("d", 8),
                        new StoreJobScheduled(0, "d", List.of(0, 1), keys(P12, 0, 1), List.of(1, 2)),
                        computed("d", 12), new StoreJobScheduled(1, "d", List.of(2), keys(P12, 2), List.of(3)),
                        new StoreJobCompleted(0, "d", false), new StoreJobCompleted(1, "d", true),
                        new ChunksStored(keys(P12, 2)), storedAndReady("e", A4, 2, 4), registered("b", tokens(1, 13))))
                .when(new MatchPrefix("b"))
                .thenEvents(new PrefixMatched("b", 0, 4, List.of(0)));
    }

    @Test
    void aChunkStillBeingWrittenDefersTheMatch() {
        LedgerFixture.with(B4).given(history(running("a", A8, 1, 2), computed("a", 8),
                        new StoreJobScheduled(0, "a", List.of(0, 1), keys(A8, 0, 1), List.of(1, 2)),
                        registered("b", B10)))
                .when(new MatchPrefix("b"))
                .thenEvents(new PrefixMatchDeferred("b", 0, CHUNK_WRITE_IN_FLIGHT));
    }

    @Test
    void aChunkBeingWrittenAfterAHitStillDefersTheMatch() {
        // Chunk 0 is ready, chunk 1 is being written by d.
        LedgerFixture.with(B4).given(history(storedAndReady("a", A4, 0, 1), registered("d", A8), allocated("d", 5, 6),
                        computed("d", 8), new StoreJobScheduled(1, "d", List.of(1), keys(A8, 1), List.of(6)),
                        registered("b", B10)))
                .when(new MatchPrefix("b"))
                .thenEvents(new PrefixMatchDeferred("b", 0, CHUNK_WRITE_IN_FLIGHT));
    }

    @Test
    void aChunkAnotherRequestIsLoadingDefersTheMatch() {
        LedgerFixture.with(B4).given(history(bLoadingFromA(), registered("c", B10)))
                .when(new MatchPrefix("c"))
                .thenEvents(new PrefixMatchDeferred("c", 0, CHUNK_BEING_LOADED));
    }

    @Test
    void theFirstChunkExaminedThatCannotBeHitNamesTheReason() {
        // Chunks 0, 1 are being loaded by b; chunk 2 is being written by d.
        LedgerFixture.with(B4).given(history(bLoadingFromA(), registered("d", P12), allocated("d", 11, 12, 13),
                        computed("d", 12), new StoreJobScheduled(2, "d", List.of(2), keys(P12, 2), List.of(13)),
                        registered("c", tokens(1, 13))))
                .when(new MatchPrefix("c"))
                .thenEvents(new PrefixMatchDeferred("c", 0, CHUNK_BEING_LOADED));
    }

    @Test
    void aGpuHitSkipsTheChunksItCovers() {
        LedgerFixture.with(B4).given(history(storedAndReady("a", P12, 0, 1, 2, 3), registered("b", tokens(1, 14))))
                .when(new MatchPrefix("b", 4))
                .thenEvents(new PrefixMatched("b", 4, 8, List.of(1, 2)));
    }

    @Test
    void aGpuHitEndingMidChunkCountsExternalTokensFromL() {
        LedgerFixture.fromHistory(history(a16ReadyF2(), registered("b", tokens(1, 20))))
                .when(new MatchPrefix("b", 4))
                .thenEvents(new PrefixMatched("b", 4, 12, List.of(0, 1)));
    }

    @Test
    void externalTokensBelowAChunkAreZeroWithNoHitChunks() {
        // F = 2, L = 12: a = 1, chunk 1 hits, chunk 2 is missing: (1+1)*8 - 12 = 4 < C.
        LedgerFixture.fromHistory(history(a16ReadyF2(), registered("b", tokens(1, 24))))
                .when(new MatchPrefix("b", 12))
                .thenEvents(new PrefixMatched("b", 12, 0, List.of()));
    }

    @Test
    void aMatchMakesCTheGpuHitTokens() {
        LedgerFixture.with(B4).given(registered("b", A8))
                .when(new MatchPrefix("b", 4), new AllocateBlocks("b", List.of(1, 2)), new ComputeTokens("b", 4))
                .thenEvents(new PrefixMatched("b", 4, 0, List.of()), new BlocksAllocated("b", List.of(1, 2), 0),
                        new TokensComputed("b", 8),
                        new StoreJobScheduled(0, "b", List.of(0, 1), keys(A8, 0, 1), List.of(1, 2)));
    }

    @Test
    void aMatchTouchesItsHitChunks() {
        // a0 is older than y0; b's hit on a0 touches it, so y0 becomes the least recently used.
        LedgerFixture.with(B4.withCpuCapacityChunks(2)).given(history(storedAndReady("a", A4, 0, 1),
                        storedAndReady("y", Y4, 1, 2), registered("b", A8), running("x", X8, 9)))
                .when(new MatchPrefix("b"), new ComputeTokens("x", 4))
                .thenEvents(new PrefixMatched("b", 0, 4, List.of(0)), new TokensComputed("x", 4),
                        new ChunksEvicted(keys(Y4, 0)),
                        new StoreJobScheduled(2, "x", List.of(0), keys(X8, 0), List.of(9)));
    }

    @Test
    void aDeferralCancelsTheEarlierMatchSoNoLoadMayUseIt() {
        LedgerFixture.with(B4).given(history(storedAndReady("a", A4, 0, 1), registered("b", A8),
                        new PrefixMatched("b", 0, 4, List.of(0)), registered("d", A8), allocated("d", 5, 6),
                        computed("d", 8), new StoreJobScheduled(1, "d", List.of(1), keys(A8, 1), List.of(6))))
                .when(new MatchPrefix("b"), new AllocateBlocks("b", List.of(1, 2), 4))
                .thenEvents(new PrefixMatchDeferred("b", 0, CHUNK_WRITE_IN_FLIGHT),
                        rejected(2, "AllocateBlocks", INVALID_STATE, "b"));
    }

    @Test
    void aDeferralLeavesCAsItWas() {
        // The first match made c = 4; the deferred one (L = 0) leaves it at 4.
        LedgerFixture.with(B4).given(history(registered("b", A8), new PrefixMatched("b", 4, 0, List.of()),
                        running("d", A8, 5, 6), computed("d", 8),
                        new StoreJobScheduled(0, "d", List.of(0, 1), keys(A8, 0, 1), List.of(5, 6))))
                .when(new MatchPrefix("b"), new AllocateBlocks("b", List.of(1, 2)), new ComputeTokens("b", 4))
                .thenEvents(new PrefixMatchDeferred("b", 0, CHUNK_WRITE_IN_FLIGHT),
                        new BlocksAllocated("b", List.of(1, 2), 0), new TokensComputed("b", 8));
    }
}
