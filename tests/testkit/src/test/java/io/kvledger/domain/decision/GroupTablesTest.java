package io.kvledger.domain.decision;

import static io.kvledger.domain.decision.GroupFixtures.FULL_SWA4;
import static io.kvledger.domain.decision.GroupFixtures.FULL_SWA4_DELAY_FREE;
import static io.kvledger.domain.decision.GroupFixtures.FULL_SWA8;
import static io.kvledger.domain.decision.GroupFixtures.alloc;
import static io.kvledger.domain.decision.GroupFixtures.free;
import static io.kvledger.domain.decision.GroupFixtures.g;
import static io.kvledger.domain.decision.GroupFixtures.l;
import static io.kvledger.domain.decision.GroupFixtures.register;
import static io.kvledger.domain.decision.GroupFixtures.store;
import static io.kvledger.domain.event.RejectionCode.INVALID_ARGUMENT;
import static io.kvledger.domain.event.RejectionCode.INVALID_STATE;
import static io.kvledger.domain.event.RejectionCode.UNKNOWN_REQUEST;
import static io.kvledger.testkit.EventMatcher.rejected;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.testkit.LedgerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Contract sections 7.0, 7.2 and 7.3: per-group shapes, null entries, freed window blocks, fences, blocks held. */
class GroupTablesTest {

    /** "r" (8 tokens) RUNNING on [[1, 2], [11, 12]], its prompt computed: store job 0 reads 1, 2, 11, 12. */
    private static LedgerFixture rComputed(EngineConfig config) {
        return LedgerFixture.with(config).givenCommands(register("r", 1, 8), alloc("r", l(1, 2), l(11, 12)),
                new ComputeTokens("r", 8));
    }

    @Test
    void aPerGroupFieldWithAnotherNumberOfListsIsRejected() {
        LedgerFixture.with(FULL_SWA4).givenCommands(register("r", 1, 8))
                .when(alloc("r", l(1, 2)), free("r", l(), l(), l(3)))
                .thenRejections(rejected(1, "AllocateBlocks", INVALID_ARGUMENT, "r"),
                        rejected(2, "FreeWindowBlocks", INVALID_ARGUMENT, "r"));
    }

    @Test
    void aNullBlockOnlyInASlidingGroupAndOnlyBelowTheWindow() {
        // c = 0: first_1(0) = 0, so no position may be null yet; a FULL group never has one.
        LedgerFixture.with(FULL_SWA4).givenCommands(register("r", 1, 8))
                .when(alloc("r", l(null, 2), l(11, 12)), alloc("r", l(1, 2), l(null, 12)))
                .thenRejections(rejected(1, "AllocateBlocks", INVALID_ARGUMENT, "r"),
                        rejected(2, "AllocateBlocks", INVALID_ARGUMENT, "r"));
    }

    @Test
    void aNullBlockBelowFirstOfTheComputedTokensIsAllowed() {
        // c = 8, w = 4: first_1(8) = floor(5/4) = 1, so position 0 may be null, position 2 may not.
        LedgerFixture.with(FULL_SWA4).givenCommands(register("r", 1, 12), alloc("r", l(1, 2), l()), new ComputeTokens("r", 8))
                .when(alloc("r", l(), l((Integer) null)), alloc("r", l(3), l(null, 13)))
                .thenRejections(rejected(2, "AllocateBlocks", INVALID_ARGUMENT, "r"));
    }

    @Test
    void aNullPositionIsATableRuleAfterTheRequestsState() {
        LedgerFixture.with(FULL_SWA4).givenCommands(register("r", 1, 8), alloc("r", l(1, 2), l(11, 12)),
                        new ComputeTokens("r", 8), new PreemptRequest("r"))
                .when(new ComputeTokens("r", 4))
                .thenRejections(rejected(1, "ComputeTokens", INVALID_STATE, "r"));
    }

    @Test
    void aBlockNamedTwiceInOneAllocationIsAFieldCheckBeforeTheState() {
        LedgerFixture.with(FULL_SWA4).givenCommands(register("r", 1, 8), alloc("r", l(1), l(11)), new ComputeTokens("r", 4),
                        new PreemptRequest("r"))
                .when(new ComputeTokens("r", 1), alloc("r", l(5, 2), l(5, 12)))
                .thenRejections(rejected(1, "ComputeTokens", INVALID_STATE, "r"),
                        rejected(2, "AllocateBlocks", INVALID_ARGUMENT, "r"));
    }

    @Test
    void aBlockTheRequestsTablesAlreadyHoldIsRejected() {
        LedgerFixture.with(FULL_SWA4).givenCommands(register("r", 1, 12), alloc("r", l(1, 2), l(11, 12)))
                .when(alloc("r", l(11), l(13)), alloc("r", l(3), l(13)))
                .thenRejections(rejected(1, "AllocateBlocks", INVALID_ARGUMENT, "r"));
    }

    @Test
    void freeingABlockOutsideTheWindowMakesItsEntryNullAndTheReleaseLeavesItOut() {
        rComputed(FULL_SWA4)
                .when(free("r", l(), l(11)), new CompleteTransfer(0), new AbortRequest("r"))
                .thenReleases(new BlocksReleased("r", g(l(1, 2), l(12))))
                .thenState(state -> {
                    if (state.heldRequest("r") != null) {
                        throw new AssertionError("r holds nothing more: " + state.heldRequest("r"));
                    }
                });
    }

    @Test
    void freeWindowBlocksChecksEveryIdBeforeTheState() {
        // c = 8: first_1(8) = 1, so only position 0 (block 11) is outside the window.
        rComputed(FULL_SWA4)
                .when(free("r", l(), l(12)), free("r", l(1), l()), free("r", l(), l(99)), free("r", l(), l(11, 11)),
                        free("r", l(), l()), free("q", l(), l(11)), free("r", l(), l(11)))
                .thenEvents(rejected(1, "FreeWindowBlocks", INVALID_ARGUMENT, "r"),
                        rejected(2, "FreeWindowBlocks", INVALID_ARGUMENT, "r"),
                        rejected(3, "FreeWindowBlocks", INVALID_ARGUMENT, "r"),
                        rejected(4, "FreeWindowBlocks", INVALID_ARGUMENT, "r"),
                        rejected(5, "FreeWindowBlocks", INVALID_ARGUMENT, "r"),
                        rejected(6, "FreeWindowBlocks", UNKNOWN_REQUEST, "q"),
                        new WindowBlocksFreed("r", g(l(), l(11))));
    }

    @Test
    void freeWindowBlocksChecksItsIdsBeforeTheRequestsState() {
        // A preempted request's tables are empty: the id is no entry of them, a field check, before the state.
        rComputed(FULL_SWA4).givenCommands(new PreemptRequest("r"))
                .when(free("r", l(), l(11)))
                .thenRejections(rejected(1, "FreeWindowBlocks", INVALID_ARGUMENT, "r"));
    }

    @Test
    void freeWindowBlocksNeedsARunningRequest() {
        // "h" shares r's 12 stored tokens: a GPU hit of 8 (r's blocks 11, 12 at its positions 0, 1) and a load of
        // chunk 2; while it loads, c = 8 and position 0 is outside the window (first_1(8) = 1), yet it is LOADING.
        LedgerFixture.with(FULL_SWA4).givenCommands(register("r", 1, 12), alloc("r", l(1, 2, 3), l(11, 12, 13)),
                        new ComputeTokens("r", 12), new CompleteTransfer(0), register("h", 1, 13),
                        new io.kvledger.domain.command.MatchPrefix("h", 8),
                        GroupFixtures.load("h", 4, l(1, 2, 5), l(11, 12, 15)))
                .when(free("h", l(), l(11)))
                .thenRejections(rejected(1, "FreeWindowBlocks", INVALID_STATE, "h"));
    }

    @Test
    void withOneFullGroupFreeWindowBlocksIsKnownAndAlwaysRejectedAfterTheRequestChecks() {
        EngineConfig oneFull = EngineConfig.DEFAULTS.withGroups(List.of(KvCacheGroup.full(4)));
        LedgerFixture.with(oneFull).givenCommands(register("r", 1, 8), new AllocateBlocksFlat("r", 1, 2).command(),
                        new ComputeTokens("r", 8))
                .when(new io.kvledger.domain.command.FreeWindowBlocks("q", g(l(1))),
                        new io.kvledger.domain.command.FreeWindowBlocks("r", g(l(1))))
                .thenRejections(rejected(1, "FreeWindowBlocks", UNKNOWN_REQUEST, "q"),
                        rejected(2, "FreeWindowBlocks", INVALID_ARGUMENT, "r"));
    }

    @Test
    void aFreedBlockAStoreStillReadsIsFencedEvenUnderDelayFree() {
        rComputed(FULL_SWA4_DELAY_FREE).givenCommands(free("r", l(), l(11)), register("o", 40, 43))
                .when(alloc("o", l(14), l(11)))
                .thenEvents(new FlushRequired(List.of(0L), List.of(11)), new BlocksAllocated("o", g(l(14), l(11)), 0));
    }

    @Test
    void aFreedBlocksFenceEndsWithItsStore() {
        rComputed(FULL_SWA4_DELAY_FREE).givenCommands(free("r", l(), l(11)), register("o", 40, 43), new CompleteTransfer(0))
                .when(alloc("o", l(14), l(11)))
                .thenFlushes();
    }

    @Test
    void aFreedBlocksFenceSurvivesAPreemption() {
        // 7.10: the preemption flushes the store and releases 1, 2, 12; handing out 11 and 12 again before the
        // store ends flushes 11 only (the free's fence outlives the preemption; 12 was never fenced).
        rComputed(FULL_SWA4_DELAY_FREE).givenCommands(free("r", l(), l(11)), register("o", 40, 47))
                .when(new PreemptRequest("r"), alloc("o", l(3, 4), l(11, 12)))
                .thenEvents(new RequestPreempted("r"), new FlushRequired(List.of(0L), List.of(1, 2, 11, 12)),
                        new BlocksReleased("r", g(l(1, 2), l(12))),
                        new FlushRequired(List.of(0L), List.of(11)), new BlocksAllocated("o", g(l(3, 4), l(11, 12)), 0));
    }

    @Test
    void aBlockASlidingTableOfAnotherRequestStillHoldsIsRejected() {
        rComputed(FULL_SWA4).givenCommands(register("h", 21, 24))
                .when(alloc("h", l(3), l(12)), alloc("h", l(12), l(13)))
                .thenRejections(rejected(1, "AllocateBlocks", INVALID_ARGUMENT, "h"),
                        rejected(2, "AllocateBlocks", INVALID_ARGUMENT, "h"));
    }

    @Test
    void aBlockOnlyAFullTableHoldsStaysUnchecked() {
        rComputed(FULL_SWA4).givenCommands(register("h", 21, 24))
                .when(alloc("h", l(1), l(13)))
                .thenRejections();
    }

    @Test
    void aWaitingRequestMayShareHeldBlocksAtItsGpuHitPositions() {
        // "h" shares r's prefix: a GPU hit of 4 tokens puts r's blocks 1 and 11 at position 0 of its tables.
        rComputed(FULL_SWA4).givenCommands(register("h", 1, 8),
                        new io.kvledger.domain.command.MatchPrefix("h", 4))
                .when(alloc("h", l(1, 3), l(11, 13)))
                .thenRejections();
    }

    @Test
    void theGpuHitExemptionCoversOnlyThePositionsBelowTheHit() {
        rComputed(FULL_SWA4).givenCommands(register("h", 1, 8),
                        new io.kvledger.domain.command.MatchPrefix("h", 4))
                .when(alloc("h", l(1, 3), l(13, 11)))
                .thenRejections(rejected(1, "AllocateBlocks", INVALID_ARGUMENT, "h"));
    }

    @Test
    void aTerminatedRequestsUnreleasedBlocksAreStillHeld() {
        // DELAY_FREE: r's blocks stay its own until its store ends.
        rComputed(FULL_SWA4_DELAY_FREE).givenCommands(new AbortRequest("r"), register("h", 21, 24))
                .when(alloc("h", l(3), l(12)))
                .thenRejections(rejected(1, "AllocateBlocks", INVALID_ARGUMENT, "h"));
    }

    @Test
    void aReleasedWindowBlockIsNoLongerHeld() {
        rComputed(FULL_SWA4_DELAY_FREE).givenCommands(new AbortRequest("r"), new CompleteTransfer(0), register("h", 21, 24))
                .when(alloc("h", l(3), l(12)))
                .thenRejections();
    }

    @Test
    void theStoreOfBothGroupsIsOneJob() {
        LedgerFixture.with(FULL_SWA8).givenCommands(register("r", 1, 12), alloc("r", l(1, 2, 3), l(11, 12, 13)))
                .when(new ComputeTokens("r", 12))
                .thenEvents(new TokensComputed("r", 12), store(0, "r", g(l(0, 1, 2), l(0, 1, 2)), g(l(1, 2, 3), l(11, 12, 13))));
    }

    /** "h" LOADING: it shares r's 12 stored tokens (GPU hit of 8: r's 1, 2 and 11, 12) and loads chunk 2. */
    private static LedgerFixture hLoading() {
        return LedgerFixture.with(FULL_SWA4).givenCommands(register("r", 1, 12), alloc("r", l(1, 2, 3), l(11, 12, 13)),
                new ComputeTokens("r", 12), new CompleteTransfer(0), register("h", 1, 13),
                new io.kvledger.domain.command.MatchPrefix("h", 8),
                GroupFixtures.load("h", 4, l(1, 2, 5), l(11, 12, 15)));
    }

    @Test
    void anIdNamedTwiceIsRejectedBeforeTheRequestsState() {
        hLoading().when(alloc("h", l(6), l(6)))
                .thenRejections(rejected(1, "AllocateBlocks", INVALID_ARGUMENT, "h"));
    }

    @Test
    void theTableRulesComeAfterTheRequestsState() {
        // A block r's sliding table holds, a null inside the window, a block h already holds: each a table rule,
        // so a LOADING request is refused for its state first.
        hLoading().when(alloc("h", l(6), l(13)), alloc("h", l(6), l((Integer) null)), alloc("h", l(5), l(16)))
                .thenRejections(rejected(1, "AllocateBlocks", INVALID_STATE, "h"),
                        rejected(2, "AllocateBlocks", INVALID_STATE, "h"),
                        rejected(3, "AllocateBlocks", INVALID_STATE, "h"));
    }

    @Test
    void aNullInAFullGroupIsAFieldCheckBeforeTheRequestsState() {
        hLoading().when(alloc("h", l((Integer) null), l()))
                .thenRejections(rejected(1, "AllocateBlocks", INVALID_ARGUMENT, "h"));
    }

    @Test
    void aBlockTheRequestAlreadyHoldsIsRefusedWhateverTheTablesLength() {
        // 40 blocks named against 140 entries are looked up in a set of the tables, 1 against 141 in the tables.
        List<Integer> full = new java.util.ArrayList<>();
        List<Integer> window = new java.util.ArrayList<>();
        List<Integer> many = new java.util.ArrayList<>();
        for (int i = 0; i < 70; i++) {
            full.add(100 + i);
            window.add(200 + i);
        }
        for (int i = 0; i < 39; i++) {
            many.add(300 + i);
        }
        many.add(150);
        LedgerFixture.with(FULL_SWA4).givenCommands(register("r", 1, 8), alloc("r", full, window))
                .when(alloc("r", many, l()), alloc("r", l(7), l()), alloc("r", l(120), l()))
                .thenRejections(rejected(1, "AllocateBlocks", INVALID_ARGUMENT, "r"),
                        rejected(3, "AllocateBlocks", INVALID_ARGUMENT, "r"));
    }

    /** An allocation of one flat list, for the one-group engine. */
    private record AllocateBlocksFlat(String requestId, Integer... blocks) {
        io.kvledger.domain.command.AllocateBlocks command() {
            return new io.kvledger.domain.command.AllocateBlocks(requestId, List.of(blocks));
        }
    }
}
