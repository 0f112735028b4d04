package io.kvledger.domain.decision;

import static io.kvledger.domain.decision.GroupFixtures.FULL_EAGLE;
import static io.kvledger.domain.decision.GroupFixtures.FULL_SWA8;
import static io.kvledger.domain.decision.GroupFixtures.alloc;
import static io.kvledger.domain.decision.GroupFixtures.g;
import static io.kvledger.domain.decision.GroupFixtures.l;
import static io.kvledger.domain.decision.GroupFixtures.load;
import static io.kvledger.domain.decision.GroupFixtures.loadJob;
import static io.kvledger.domain.decision.GroupFixtures.register;
import static io.kvledger.domain.event.RejectionCode.INVALID_ARGUMENT;
import static io.kvledger.testkit.EventMatcher.rejected;

import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.DeferReason;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.testkit.LedgerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Contract sections 7.5 and 7.6: the grouped lookup and its loads. */
class GroupLookupTest {

    /** "r" stored and completed tokens 1..12 in both groups ([[1, 2, 3], [11, 12, 13]]), then finished. */
    private static LedgerFixture rStored(EngineConfig config) {
        return LedgerFixture.with(config).givenCommands(register("r", 1, 12), alloc("r", l(1, 2, 3), l(11, 12, 13)),
                new ComputeTokens("r", 12), new FinishRequest("r", FinishReason.STOPPED), new CompleteTransfer(0));
    }

    @Test
    void aSlidingGroupNeedsOnlyTheChunksInsideTheWindowOfTheHitEnd() {
        // M = n - 1 = 12; first_1(12) = floor(5/4) = 1 with w = 8.
        rStored(FULL_SWA8).givenCommands(register("q", 1, 13))
                .when(new MatchPrefix("q", 0))
                .thenEvents(new PrefixMatched("q", 0, 12, g(l(0, 1, 2), l(1, 2))));
    }

    @Test
    void withASlidingGroupTheLastTokenIsNeverAHitAndTheHitNeedNotEndAChunk() {
        // n = 12, M = 11: N = 11 needs g0 chunks 0..2 and g1 chunks first_1(11) = 1 .. 2.
        rStored(FULL_SWA8).givenCommands(register("q", 1, 12))
                .when(new MatchPrefix("q", 0))
                .thenEvents(new PrefixMatched("q", 0, 11, g(l(0, 1, 2), l(1, 2))));
    }

    @Test
    void aMissingChunkInsideTheWindowEndsTheHitBeforeIt() {
        // The sliding chunk 2 is missing: N = 12 fails, N = 8 needs g1 chunks 0..1 (first_1(8) = 0).
        LedgerFixture.with(FULL_SWA8.withCpuCapacityChunks(5)).givenCommands(register("r", 1, 12),
                        alloc("r", l(1, 2, 3), l(11, 12, 13)), new ComputeTokens("r", 8), new CompleteTransfer(0),
                        new FinishRequest("r", FinishReason.STOPPED), new CompleteTransfer(1), register("q", 1, 13))
                .when(new MatchPrefix("q", 0))
                .thenEvents(new PrefixMatched("q", 0, 8, g(l(0, 1), l(0, 1))));
    }

    @Test
    void anEagleGroupNeedsTheChunkAfterTheHitWhichItDoesNotLoad() {
        rStored(FULL_EAGLE).givenCommands(register("q", 1, 13))
                .when(new MatchPrefix("q", 0))
                .thenEvents(new PrefixMatched("q", 0, 8, g(l(0, 1), l(0, 1))));
    }

    @Test
    void aHitShorterThanSomeGroupsChunkIsNone() {
        // [FULL B4, SWA B8 w8] (lcm 8): from L = 8 the only hit end both groups serve is 12, 4 tokens < C_1 = 8.
        EngineConfig sizes = EngineConfig.DEFAULTS.withGroups(List.of(KvCacheGroup.full(4), KvCacheGroup.slidingWindow(8, 8)));
        LedgerFixture.with(sizes).givenCommands(register("r", 1, 16), alloc("r", l(1, 2, 3), l(11, 12)),
                        new ComputeTokens("r", 16), new FinishRequest("r", FinishReason.STOPPED), new CompleteTransfer(0),
                        register("q", 1, 13))
                .when(new MatchPrefix("q", 8))
                .thenEvents(new PrefixMatched("q", 8, 0, PerGroup.<Integer>empty(2)));
    }

    @Test
    void theGpuHitMustBeAMultipleOfEveryBlockSize() {
        EngineConfig sizes = EngineConfig.DEFAULTS.withGroups(List.of(KvCacheGroup.full(4), KvCacheGroup.slidingWindow(8, 8)));
        LedgerFixture.with(sizes).givenCommands(register("q", 1, 13))
                .when(new MatchPrefix("q", 4))
                .thenRejections(rejected(1, "MatchPrefix", INVALID_ARGUMENT, "q"));
    }

    @Test
    void aChunkStillBeingWrittenDefers() {
        LedgerFixture.with(FULL_SWA8).givenCommands(register("r", 1, 12), alloc("r", l(1, 2, 3), l(11, 12, 13)),
                        new ComputeTokens("r", 12), register("q", 1, 13))
                .when(new MatchPrefix("q", 0))
                .thenEvents(new PrefixMatchDeferred("q", 0, DeferReason.CHUNK_WRITE_IN_FLIGHT));
    }

    @Test
    void aChunkAnotherRequestIsLoadingDefers() {
        rStored(FULL_SWA8).givenCommands(register("p", 1, 13), new MatchPrefix("p", 0),
                        load("p", 12, l(21, 22, 23, 24), l(null, 31, 32, 33)), register("q", 1, 13))
                .when(new MatchPrefix("q", 0))
                .thenEvents(new PrefixMatchDeferred("q", 0, DeferReason.CHUNK_BEING_LOADED));
    }

    @Test
    void theLoadReadsEachGroupsHitChunksIntoTheWindowOfItsTable() {
        rStored(FULL_SWA8).givenCommands(register("q", 1, 13), new MatchPrefix("q", 0))
                .when(load("q", 12, l(21, 22, 23, 24), l(null, 31, 32, 33)))
                .thenEvents(new BlocksAllocated("q", g(l(21, 22, 23, 24), l(null, 31, 32, 33)), 12),
                        loadJob(1, "q", g(l(0, 1, 2), l(1, 2)), g(l(21, 22, 23), l(31, 32))));
    }

    @Test
    void everyGroupsTableMustReachTheHitEnd() {
        rStored(FULL_SWA8).givenCommands(register("q", 1, 13), new MatchPrefix("q", 0))
                .when(load("q", 12, l(21, 22, 23, 24), l(null, 31)))
                .thenRejections(rejected(1, "AllocateBlocks", INVALID_ARGUMENT, "q"));
    }

    @Test
    void aLoadMovesEveryCursorToTheHitEndSoLoadedChunksAreNotStoredAgain() {
        rStored(FULL_SWA8).givenCommands(register("q", 1, 13), new MatchPrefix("q", 0),
                        load("q", 12, l(21, 22, 23, 24), l(null, 31, 32, 33)), new CompleteTransfer(1))
                .when(new ComputeTokens("q", 1))
                .thenStoreJobs();
    }

    @Test
    void aFailedLoadDropsItsChunksInEveryGroupAndPutsEveryCursorBack() {
        rStored(FULL_SWA8).givenCommands(register("q", 1, 13), new MatchPrefix("q", 0),
                        load("q", 12, l(21, 22, 23, 24), l(null, 31, 32, 33)))
                .when(new CompleteTransfer(1, false))
                .thenEvents(new LoadJobCompleted(1, "q", false), evictedFiveChunks())
                .thenState(state -> {
                    var q = state.heldRequest("q");
                    if (q.cursor(0) != 0 || q.cursor(1) != 0 || q.computed() != 0) {
                        throw new AssertionError("cursors and c go back: " + q);
                    }
                });
    }

    /** One ChunksEvicted of the five loaded chunks (g0 c0..c2, g1 c1..c2), keys opaque. */
    private static io.kvledger.testkit.EventMatcher evictedFiveChunks() {
        return actual -> actual instanceof ChunksEvicted e && e.keys().size() == 5;
    }
}
