package io.kvledger.domain.decision;

import static io.kvledger.domain.decision.GroupFixtures.FULL_EAGLE;
import static io.kvledger.domain.decision.GroupFixtures.FULL_SWA4;
import static io.kvledger.domain.decision.GroupFixtures.SWA4;
import static io.kvledger.domain.decision.GroupFixtures.alloc;
import static io.kvledger.domain.decision.GroupFixtures.free;
import static io.kvledger.domain.decision.GroupFixtures.g;
import static io.kvledger.domain.decision.GroupFixtures.l;
import static io.kvledger.domain.decision.GroupFixtures.register;
import static io.kvledger.domain.decision.GroupFixtures.store;
import static io.kvledger.domain.event.RejectionCode.INVALID_ARGUMENT;
import static io.kvledger.testkit.EventMatcher.rejected;

import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.StoreDeferReason;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.event.TokensRejected;
import io.kvledger.testkit.LedgerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Contract section 7.4: per-group storable chunks, null entries, the alignment, one tier decision, touches, the floor. */
class GroupStoresTest {

    @Test
    void aChunkWithANullEntryIsPassedOver() {
        // [SWA B4 w4], room for one chunk: the offer of chunks 0, 1 is deferred; block 1 (chunk 0) is freed
        // (first(8) = 1), so the next offer is chunks 1, 2 only.
        LedgerFixture.with(SWA4.withCpuCapacityChunks(1)).givenCommands(register("r", 1, 12), alloc("r", l(1, 2, 3)),
                        new ComputeTokens("r", 8), free("r", l(1)))
                .when(new ComputeTokens("r", 4))
                .thenEvents(new TokensComputed("r", 12), new StoreDeferred("r", g(l(1, 2)), StoreDeferReason.TIER_FULL));
    }

    @Test
    void anOfferOfNullChunksOnlyMovesTheCursorAndWritesNothing() {
        // [SWA B4 w4], no room: both chunks of the table are deferred, then freed (first(11) = 2).
        LedgerFixture.with(SWA4.withCpuCapacityChunks(0)).givenCommands(register("r", 1, 12), alloc("r", l(1, 2)),
                        new ComputeTokens("r", 8), new ComputeTokens("r", 3), free("r", l(1, 2)))
                .when(new ComputeTokens("r", 1))
                .thenEvents(new TokensComputed("r", 12))
                .thenState(state -> {
                    if (state.heldRequest("r").cursor() != 2) {
                        throw new AssertionError("the cursor passes the null chunks: " + state.heldRequest("r"));
                    }
                });
    }

    @Test
    void anEagleGroupHoldsBackItsLastChunkWhileDecodingButNotAtTheEndOfThePrefill() {
        LedgerFixture.with(FULL_EAGLE).givenCommands(register("r", 1, 8), alloc("r", l(1, 2, 3), l(11, 12, 13)))
                .when(new ComputeTokens("r", 8), new AppendTokens("r", List.of(9, 10, 11, 12)), new ComputeTokens("r", 4))
                .thenEvents(new TokensComputed("r", 8), store(0, "r", g(l(0, 1), l(0, 1)), g(l(1, 2), l(11, 12))),
                        new TokensAppended("r", 12, List.of(9, 10, 11, 12)), new TokensComputed("r", 12),
                        store(1, "r", g(l(2), l()), g(l(3), l())));
    }

    @Test
    void theAlignmentStoresOnlyTheLastChunksOfEachFullChunk() {
        // [FULL B16, SWA B4 w8]: A_1 = 4, W_1 = 2: of sliding chunks 0..7 only 2, 3, 6, 7 can end a hit.
        EngineConfig aligned = EngineConfig.DEFAULTS.withGroups(List.of(KvCacheGroup.full(16), KvCacheGroup.slidingWindow(4, 8)));
        LedgerFixture.with(aligned).givenCommands(register("r", 1, 32), alloc("r", l(1, 2), l(11, 12, 13, 14, 15, 16, 17, 18)))
                .when(new ComputeTokens("r", 32))
                .thenEvents(new TokensComputed("r", 32), store(0, "r", g(l(0, 1), l(2, 3, 6, 7)), g(l(1, 2), l(13, 14, 17, 18))));
    }

    @Test
    void theOfferOfAllGroupsIsOneTierDecision() {
        // Room for 3 chunks, an offer of 2 + 2: deferred whole, naming the offer of each group.
        LedgerFixture.with(FULL_SWA4.withCpuCapacityChunks(3)).givenCommands(register("r", 1, 8), alloc("r", l(1, 2), l(11, 12)))
                .when(new ComputeTokens("r", 8))
                .thenEvents(new TokensComputed("r", 8), new StoreDeferred("r", g(l(0, 1), l(0, 1)), StoreDeferReason.TIER_FULL));
    }

    @Test
    void theRejectTokensFloorKeepsANullPositionOutOfTheWindow() {
        // 7.10: [SWA B4 w4], c = 15 after drafts, n = 10; once position 2 is null the floor is (2+1)*4 + 4 - 1 = 15.
        LedgerFixture.with(SWA4.withCpuCapacityChunks(0)).givenCommands(register("r", 1, 10), alloc("r", l(1, 2, 3, 4)),
                        new ComputeTokens("r", 15), free("r", l(3)))
                .when(new RejectTokens("r", 1))
                .thenRejections(rejected(1, "RejectTokens", INVALID_ARGUMENT, "r"));
    }

    @Test
    void theFloorOfANullPositionIsTheSmallestComputedCountWhoseWindowExcludesIt() {
        // Position 1 null: (1+1)*4 + 4 - 1 = 11, above n - 1 = 9.
        LedgerFixture.with(SWA4.withCpuCapacityChunks(0)).givenCommands(register("r", 1, 10), alloc("r", l(1, 2, 3, 4)),
                        new ComputeTokens("r", 15), free("r", l(2)))
                .when(new RejectTokens("r", 5), new RejectTokens("r", 4))
                .thenEvents(rejected(1, "RejectTokens", INVALID_ARGUMENT, "r"), new TokensRejected("r", 11));
    }

    @Test
    void aTouchGoesGroupByGroupSoALaterGroupsChunksAreMoreRecent() {
        // r's store touched g0 c0, then g1 c0: g0 c0 is the least recently used, and the one y's store evicts.
        LedgerFixture.with(FULL_SWA4.withCpuCapacityChunks(2)).givenCommands(register("r", 1, 4), alloc("r", l(1), l(11)),
                        new ComputeTokens("r", 4), new CompleteTransfer(0), register("y", 51, 54), alloc("y", l(5), l()))
                .when(new ComputeTokens("y", 4))
                .thenEvents(new TokensComputed("y", 4), new ChunksEvicted(List.of(keyOfR())), store(1, "y", g(l(0), l()), g(l(5), l())));
    }

    /** The key of r's group-0 chunk 0 (tokens 1..4), as the engine names it. */
    private static String keyOfR() {
        return io.kvledger.domain.state.BlockHashes.of(4, List.of(1, 2, 3, 4)).get(0);
    }
}
