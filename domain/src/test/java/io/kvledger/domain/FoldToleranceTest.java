package io.kvledger.domain;

import static io.kvledger.domain.DomainLedger.tokens;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.ResetCache;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fold is total and settles requests exactly when they hold nothing: events a foreign log may hold
 * (unknown requests and jobs, a repeated registration, stores past the cursor) are tolerated, and fences
 * and resets leave the state the rules say.
 */
class FoldToleranceTest {

    private final DomainLedger ledger = new DomainLedger(EngineConfig.DEFAULTS.withGpuBlockSize(2));

    @Test
    void eventsAboutUnknownRequestsOrJobsChangeNothing() {
        EngineState state = ledger.state;
        assertSame(state, EngineFold.evolve(state, new TokensComputed("ghost", 4)));
        assertSame(state, EngineFold.evolve(state, new StoreJobCompleted(9, "ghost", true)));
        ledger.run(new RegisterRequest("r", List.of(1)));
        assertSame(ledger.state, EngineFold.evolve(ledger.state, new RequestRegistered("r", 2, List.of(5, 6))));
        assertThrows(IllegalStateException.class, () -> EngineFold.evolve(null, new TokensComputed("r", 1)));
    }

    @Test
    void aStoreOrLoadOfAnUnknownRequestIsStillAJobInFlight() {
        EngineState stored = EngineFold.evolve(ledger.state, new StoreJobScheduled(4, "ghost", List.of(0), List.of("k"), List.of(3)));
        assertEquals(5, stored.nextJobId());
        assertNotNull(stored.job(4));
        assertFalse(stored.tier().isReady("k"));
        EngineState loaded = EngineFold.evolve(stored, new LoadJobScheduled(5, "ghost", List.of(0), List.of("k"), List.of(7)));
        assertEquals(6, loaded.nextJobId());
        assertEquals(1, loaded.tier().chunk("k").pins());
    }

    @Test
    void aForeignStorePastTheCursorMovesTheCursorPastIt() {
        ledger.run(new RegisterRequest("r", tokens(0, 8)), new AllocateBlocks("r", List.of(0, 1, 2, 3), 0));
        String key = ledger.request("r").key(2, 1);
        EngineState after = EngineFold.evolve(ledger.state, new StoreJobScheduled(0, "r", List.of(2), List.of(key), List.of(2)));
        assertEquals(3, after.heldRequest("r").cursor());
        assertEquals(1, after.tier().size(), "the store writes chunk 2; chunks 0 and 1 it passes are not held");
    }

    @Test
    void aLookupReadsOnlyTheChunksWhoseTokensTheLogGave() {
        // A foreign TokensAppended whose numTokens runs past its tokens (a line dropped before it): n = 12, yet
        // the request's tokens give keys to chunks 0 and 1 only. One path for every config: the lookup of a
        // config without groups reads the keys the tokens give, as the grouped lookup always did (the single-group
        // twin looked up chunk 2 by n and failed on the missing hash).
        ledger.run(new RegisterRequest("a", tokens(0, 4)), new AllocateBlocks("a", List.of(0, 1), 0),
                new ComputeTokens("a", 4), new CompleteTransfer(0, true), new RegisterRequest("r", tokens(0, 4)));
        ledger.state = EngineFold.evolve(ledger.state, new TokensAppended("r", 12, List.of(99)));

        List<EngineEvent> events = ledger.run(new MatchPrefix("r", 0));

        assertEquals(List.of(new PrefixMatched("r", 0, 4, io.kvledger.domain.group.PerGroup.single(List.of(0, 1)))), events);
    }

    @Test
    void aTerminatedRequestSettlesOnlyOnceItHoldsNoBlockAndNoJob() {
        DomainLedger fence = new DomainLedger(EngineConfig.DEFAULTS.withGpuBlockSize(2).withReleasePolicy(ReleasePolicy.DELAY_FREE));
        fence.run(new RegisterRequest("r", tokens(0, 4)), new AllocateBlocks("r", List.of(0, 1), 0),
                new ComputeTokens("r", 4), new AbortRequest("r"));
        assertNotNull(fence.request("r"), "blocks and a store in flight: still live");
        assertEquals(RequestStatus.ABORTED, fence.state.statusOf("r"));
        assertTrue(fence.state.isTerminated("r"));
        fence.run(new CompleteTransfer(0, true));
        assertNull(fence.request("r"), "released and settled");
        assertEquals(RequestStatus.ABORTED, fence.state.statusOf("r"));
        assertTrue(fence.state.isTerminated("r"));
        assertNull(fence.state.statusOf("never"));
        assertFalse(fence.state.isTerminated("never"));
        assertTrue(fence.state.request("r").isEmpty());
        fence.assertReplays();
    }

    @Test
    void aStoreThatEndsLiftsItsFenceSoTheBlockIsHandedOutWithoutAFlush() {
        ledger.run(new RegisterRequest("r", tokens(0, 4)), new AllocateBlocks("r", List.of(0, 1), 0),
                new ComputeTokens("r", 4), new AbortRequest("r"));
        assertFalse(ledger.state.fences().isEmpty());
        ledger.run(new CompleteTransfer(0, true));
        assertTrue(ledger.state.fences().isEmpty());
        ledger.run(new RegisterRequest("q", tokens(50, 2)));
        List<EngineEvent> events = ledger.run(new AllocateBlocks("q", List.of(0), 0));
        assertTrue(events.get(0) instanceof BlocksAllocated, events.toString());
        ledger.assertReplays();
    }

    @Test
    void aFencedBlockHandedOutBeforeItsStoreEndsIsFlushedFirst() {
        ledger.run(new RegisterRequest("r", tokens(0, 4)), new AllocateBlocks("r", List.of(0, 1), 0),
                new ComputeTokens("r", 4), new AbortRequest("r"), new RegisterRequest("q", tokens(50, 2)));
        List<EngineEvent> events = ledger.run(new AllocateBlocks("q", List.of(1, 7), 0));
        assertEquals(new FlushRequired(List.of(0L), List.of(1)), events.get(0));
    }

    @Test
    void aResetLeavesWaitingAndPreemptedRequestsAsTheyWereAndALoadingOneRunning() {
        ledger.run(new RegisterRequest("done", tokens(0, 4)), new AllocateBlocks("done", List.of(0, 1), 0),
                new ComputeTokens("done", 4), new CompleteTransfer(0, true));
        ledger.run(new RegisterRequest("waiting", List.of(9)));
        ledger.run(new RegisterRequest("preempted", tokens(20, 2)), new AllocateBlocks("preempted", List.of(4), 0),
                new PreemptRequest("preempted"));
        ledger.run(new RegisterRequest("loading", tokens(0, 4)), new MatchPrefix("loading", 0),
                new AllocateBlocks("loading", List.of(5, 6), 4));
        assertEquals(RequestStatus.LOADING, ledger.request("loading").status());
        ledger.run(new ResetCache());
        assertEquals(RequestStatus.WAITING, ledger.request("waiting").status());
        assertEquals(RequestStatus.PREEMPTED, ledger.request("preempted").status());
        assertEquals(RequestStatus.RUNNING, ledger.request("loading").status());
        assertEquals(0, ledger.request("loading").computed());
        assertEquals(0, ledger.state.tier().size());
        ledger.assertReplays();
    }

    @Test
    void aPreemptionOfATerminatedRequestInAForeignLogChangesNothing() {
        ledger.run(new RegisterRequest("r", tokens(0, 4)), new AllocateBlocks("r", List.of(0, 1), 0),
                new ComputeTokens("r", 4), new AbortRequest("r"));
        EngineState state = ledger.state;
        assertSame(state, EngineFold.evolve(state, new RequestPreempted("r")));
    }
}
