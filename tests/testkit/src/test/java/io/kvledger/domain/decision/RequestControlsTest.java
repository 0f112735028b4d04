package io.kvledger.domain.decision;

import static io.kvledger.domain.decision.EngineFixtures.A4;
import static io.kvledger.domain.decision.EngineFixtures.A8;
import static io.kvledger.domain.decision.EngineFixtures.B4;
import static io.kvledger.domain.decision.EngineFixtures.P12;
import static io.kvledger.domain.decision.EngineFixtures.P16;
import static io.kvledger.domain.decision.EngineFixtures.X8;
import static io.kvledger.domain.decision.EngineFixtures.Y4;
import static io.kvledger.domain.decision.EngineFixtures.keys;
import static io.kvledger.domain.decision.EngineFixtures.tokens;
import static io.kvledger.domain.decision.GroupFixtures.alloc;
import static io.kvledger.domain.decision.GroupFixtures.g;
import static io.kvledger.domain.decision.GroupFixtures.l;
import static io.kvledger.domain.event.RejectionCode.INVALID_ARGUMENT;
import static io.kvledger.testkit.EventMatcher.rejected;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.DeferReason;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.testkit.LedgerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Contract section 9.1: a request's own {@code maxOffloadTokens}, {@code maxLoadTokens} and {@code skipReadingPrefixCache}. */
class RequestControlsTest {

    /** Under B4: "a" (tokens 1..16, blocks 1..4) computed and stored chunks 0..3 with job 0, now ready. */
    private static LedgerFixture a16Stored() {
        return LedgerFixture.with(B4).givenCommands(new RegisterRequest("a", P16), new AllocateBlocks("a", List.of(1, 2, 3, 4)),
                new ComputeTokens("a", 16), new CompleteTransfer(0));
    }

    private static RegisterRequest maxLoad(String id, List<Integer> prompt, int tokens) {
        return new RegisterRequest(id, prompt, null, tokens, null);
    }

    private static RegisterRequest skipping(String id, List<Integer> prompt) {
        return new RegisterRequest(id, prompt, null, null, true);
    }

    // ---- registration ---------------------------------------------------------------------------

    @Test
    void requestRegisteredRepeatsEachControlTheCommandGave() {
        LedgerFixture.with(B4)
                .when(new RegisterRequest("p", A4, 8, 0, false), new RegisterRequest("q", A4))
                .thenEvents(new RequestRegistered("p", 4, A4, 8, 0, false), new RequestRegistered("q", 4, A4));
    }

    @Test
    void aNegativeCountIsInvalidArgumentAndRegistersNothing() {
        LedgerFixture.with(B4)
                .when(new RegisterRequest("p", A4, -1, null, null), new RegisterRequest("p", A4, null, -8, null))
                .thenRejections(rejected(1, "RegisterRequest", INVALID_ARGUMENT, "p"),
                        rejected(2, "RegisterRequest", INVALID_ARGUMENT, "p"))
                .thenState(state -> org.junit.jupiter.api.Assertions.assertFalse(state.isKnown("p")));
    }

    // ---- token bound ----------------------------------------------------------------------------

    @Test
    void theRequestsMaxOffloadTokensCapsTheTokenBound() {
        // O = min(c=12, n=12, 6) = 6: only chunk 0 reaches no further than 6 tokens.
        LedgerFixture.with(B4).givenCommands(new RegisterRequest("a", P12, 6, null, null), new AllocateBlocks("a", List.of(1, 2, 3)))
                .when(new ComputeTokens("a", 12))
                .thenEvents(new TokensComputed("a", 12), new StoreJobScheduled(0, "a", List.of(0), keys(P12, 0), List.of(1)));
    }

    @Test
    void theSmallerOfTheConfigsAndTheRequestsCapIsTheBound() {
        LedgerFixture.with(B4.withMaxOffloadTokens(4)).givenCommands(new RegisterRequest("a", P12, 8, null, null),
                        new AllocateBlocks("a", List.of(1, 2, 3)))
                .when(new ComputeTokens("a", 12))
                .thenEvents(new TokensComputed("a", 12), new StoreJobScheduled(0, "a", List.of(0), keys(P12, 0), List.of(1)));
    }

    @Test
    void maxOffloadTokensZeroNeverStores() {
        LedgerFixture.with(B4).givenCommands(new RegisterRequest("a", P12, 0, null, null), new AllocateBlocks("a", List.of(1, 2, 3)))
                .when(new ComputeTokens("a", 12), new FinishRequest("a", FinishReason.STOPPED))
                .thenJobs();
    }

    // ---- lookup: skipReadingPrefixCache ---------------------------------------------------------

    @Test
    void skippingThePrefixCacheMatchesNothingThoughTheTierHoldsTheChunks() {
        a16Stored().givenCommands(skipping("b", tokens(1, 17)))
                .when(new MatchPrefix("b", 4))
                .thenEvents(new PrefixMatched("b", 4, 0, List.of()));
    }

    @Test
    void skippingThePrefixCacheDoesNotDeferForAChunkBeingWritten() {
        LedgerFixture.with(B4).givenCommands(new RegisterRequest("a", A8), new AllocateBlocks("a", List.of(1, 2)),
                        new ComputeTokens("a", 8), skipping("b", tokens(1, 9)))
                .when(new MatchPrefix("b"))
                .thenEvents(new PrefixMatched("b", 0, 0, List.of()));
    }

    @Test
    void skippingThePrefixCacheStillDefersForTheRequestsOwnJobInFlight() {
        LedgerFixture.with(B4).givenCommands(skipping("a", A8), new MatchPrefix("a"), new AllocateBlocks("a", List.of(1, 2)),
                        new ComputeTokens("a", 8), new PreemptRequest("a"))
                .when(new MatchPrefix("a"))
                .thenEvents(new PrefixMatchDeferred("a", 0, DeferReason.TRANSFER_IN_FLIGHT));
    }

    @Test
    void skippingThePrefixCacheTouchesNothing() {
        // a0 is older than y0. Unlike a hit (LookupTest.aMatchTouchesItsHitChunks), b's lookup does not touch
        // a0, so a0 stays the least recently used and is the one evicted.
        LedgerFixture.with(B4.withCpuCapacityChunks(2)).givenCommands(new RegisterRequest("a", A4),
                        new AllocateBlocks("a", List.of(1)), new ComputeTokens("a", 4), new CompleteTransfer(0),
                        new RegisterRequest("y", Y4), new AllocateBlocks("y", List.of(2)), new ComputeTokens("y", 4),
                        new CompleteTransfer(1), skipping("b", A8), new RegisterRequest("x", X8), new MatchPrefix("x"),
                        new AllocateBlocks("x", List.of(9)))
                .when(new MatchPrefix("b"), new ComputeTokens("x", 4))
                .thenEvents(new PrefixMatched("b", 0, 0, List.of()), new TokensComputed("x", 4),
                        new ChunksEvicted(keys(A4, 0)), new StoreJobScheduled(2, "x", List.of(0), keys(X8, 0), List.of(9)));
    }

    // ---- lookup: maxLoadTokens, one group -------------------------------------------------------

    @Test
    void maxLoadTokensRoundsTheHitDownToAChunk() {
        // E = min(floor(17/4), floor((0+10)/4)) = 2: chunks 0, 1.
        a16Stored().givenCommands(maxLoad("b", tokens(1, 17), 10))
                .when(new MatchPrefix("b"))
                .thenEvents(new PrefixMatched("b", 0, 8, List.of(0, 1)));
    }

    @Test
    void maxLoadTokensCountsFromTheGpuHit() {
        // L = 4, X = 8: E = floor(12/4) = 3, chunks 1, 2.
        a16Stored().givenCommands(maxLoad("b", tokens(1, 17), 8))
                .when(new MatchPrefix("b", 4))
                .thenEvents(new PrefixMatched("b", 4, 8, List.of(1, 2)));
    }

    @Test
    void maxLoadTokensBelowAChunkOrZeroNeverLoads() {
        a16Stored().givenCommands(maxLoad("b", tokens(1, 17), 3), maxLoad("c", tokens(1, 17), 0))
                .when(new MatchPrefix("b"), new MatchPrefix("c"))
                .thenEvents(new PrefixMatched("b", 0, 0, List.of()), new PrefixMatched("c", 0, 0, List.of()));
    }

    @Test
    void aChunkPastTheLoadCapIsNotExaminedSoItNeverDefers() {
        // "a" stores chunks 0, 1 (ready) then chunk 2 (being written); X = 8 stops before chunk 2.
        LedgerFixture.with(B4).givenCommands(new RegisterRequest("a", P12), new AllocateBlocks("a", List.of(1, 2, 3)),
                        new ComputeTokens("a", 8), new CompleteTransfer(0), new ComputeTokens("a", 4),
                        maxLoad("b", tokens(1, 13), 8), new RegisterRequest("c", tokens(1, 13)))
                .when(new MatchPrefix("b"), new MatchPrefix("c"))
                .thenEvents(new PrefixMatched("b", 0, 8, List.of(0, 1)),
                        new PrefixMatchDeferred("c", 0, DeferReason.CHUNK_WRITE_IN_FLIGHT));
    }

    @Test
    void theLoadFollowsTheCappedMatch() {
        a16Stored().givenCommands(maxLoad("b", tokens(1, 17), 10), new MatchPrefix("b"))
                .when(new AllocateBlocks("b", List.of(11, 12, 13, 14, 15), 8))
                .thenEvents(new BlocksAllocated("b", List.of(11, 12, 13, 14, 15), 8),
                        new io.kvledger.domain.event.LoadJobScheduled(1, "b", List.of(0, 1), keys(P16, 0, 1), List.of(11, 12)));
    }

    // ---- lookup: groups -------------------------------------------------------------------------

    /** {@code [FULL B4, FULL B8]}: "r" (tokens 1..16) stored g0 chunks 0..3 and g1 chunks 0, 1. */
    private static LedgerFixture sizesStored() {
        EngineConfig sizes = EngineConfig.DEFAULTS.withGroups(List.of(KvCacheGroup.full(4), KvCacheGroup.full(8)));
        return LedgerFixture.with(sizes).givenCommands(new RegisterRequest("r", P16), alloc("r", l(1, 2, 3, 4), l(11, 12)),
                new ComputeTokens("r", 16), new FinishRequest("r", FinishReason.STOPPED), new CompleteTransfer(0));
    }

    @Test
    void withGroupsTheHitEndIsCappedAtRTheLargestBoundaryWithinLPlusX() {
        // M = 17; uncapped N = 16. X = 10: R = max(8, 8) = 8. X = 13: R = max(12, 8) = 12, and g1's chunk 1
        // reaches past L + X (7.6). X = 3: R = 0, below every C_g: none.
        sizesStored().givenCommands(maxLoad("a", tokens(1, 17), 10), maxLoad("b", tokens(1, 17), 13),
                        maxLoad("c", tokens(1, 17), 3), new RegisterRequest("d", tokens(1, 17)))
                .when(new MatchPrefix("a"), new MatchPrefix("b"), new MatchPrefix("c"), new MatchPrefix("d"))
                .thenEvents(new PrefixMatched("a", 0, 8, g(l(0, 1), l(0))),
                        new PrefixMatched("b", 0, 12, g(l(0, 1, 2), l(0, 1))),
                        new PrefixMatched("c", 0, 0, PerGroup.<Integer>empty(2)),
                        new PrefixMatched("d", 0, 16, g(l(0, 1, 2, 3), l(0, 1))));
    }

    @Test
    void withGroupsSkippingThePrefixCacheMatchesNothingInEveryGroup() {
        sizesStored().givenCommands(skipping("q", tokens(1, 17)))
                .when(new MatchPrefix("q"))
                .thenEvents(new PrefixMatched("q", 0, 0, PerGroup.<Integer>empty(2)));
    }
}
