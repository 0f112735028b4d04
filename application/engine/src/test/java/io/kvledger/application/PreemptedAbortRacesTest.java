package io.kvledger.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.DeferReason;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.StoreDeferReason;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.event.TokensRejected;
import io.kvledger.domain.event.TransferAcknowledged;
import io.kvledger.domain.rules.StoreBound;
import io.kvledger.domain.state.BlockHashes;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Sequence 3 and 4 of vllm-offloading.md section 2.2: a preempted request aborted after a failed re-admission,
 * and one aborted before its next lookup, which must never store blocks it no longer holds. Each step goes
 * through {@link RaceTrace}, which checks every store against the state just before it.
 */
class PreemptedAbortRacesTest {

    private RaceTrace trace;

    @AfterEach
    void close() {
        if (trace != null) {
            trace.close();
        }
    }

    // ------------------------------------------------------------------------------------------------
    // (d) Preempted, then a failed re-admission (#52211): MatchPrefix, no allocation, abort.
    // ------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(d) abort of a preempted request after a failed re-admission (match, no allocation) does nothing more")
    void abortPreemptedAfterFailedReadmission(ReleasePolicy policy) {
        EngineConfig config = RaceTrace.config(4, 1, 1, 16, policy); // C = 4
        trace = new RaceTrace(config);
        List<Integer> prompt = RaceTrace.tokens(0, 16);

        trace.ok(new RegisterRequest("r1", prompt));
        trace.ok(new MatchPrefix("r1", 0));
        trace.ok(new AllocateBlocks("r1", List.of(1, 2, 3, 4)));
        trace.ok(new ComputeTokens("r1", 8));                                // store 0: chunks 0, 1
        trace.ok(new CompleteTransfer(0, true));
        StepResult preempt = trace.ok(new PreemptRequest("r1"));
        assertEquals(List.of(new RequestPreempted("r1"), new BlocksReleased("r1", List.of(1, 2, 3, 4))),
                preempt.events());
        StepResult match = trace.ok(new MatchPrefix("r1", 0));
        assertEquals(List.of(new PrefixMatched("r1", 0, 8, List.of(0, 1))), match.events());

        RequestState before = trace.request("r1");
        assertEquals(RequestStatus.PREEMPTED, before.status());
        assertEquals(0, before.computed());
        assertEquals(4, before.keyCount(1), "start=2 num_chunks=4 keys=4 bids=0 n_computed=0");
        assertTrue(before.blockTable().isEmpty());

        StepResult abort = trace.ok(new AbortRequest("r1"));

        assertEquals(List.of(new RequestAborted("r1")), abort.events(), "no store, no load, no empty release");
        for (String key : RaceTrace.keys(config, prompt, List.of(0, 1))) {
            assertEquals(0, trace.state().tier().chunk(key).pins(), "the unused match pins nothing");
        }
        trace.assertAborted(policy, "r1");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(d) a store flushed at preemption defers the re-admission; the abort then fences its blocks (FENCE)")
    void abortPreemptedWithStoreInFlightAfterDeferredMatch(ReleasePolicy policy) {
        EngineConfig config = RaceTrace.config(4, 1, 1, 16, policy); // C = 4
        trace = new RaceTrace(config);
        List<Integer> prompt = RaceTrace.tokens(0, 16);

        trace.ok(new RegisterRequest("r1", prompt));
        trace.ok(new MatchPrefix("r1", 0));
        trace.ok(new AllocateBlocks("r1", List.of(1, 2, 3, 4)));
        trace.ok(new ComputeTokens("r1", 8));                                // store 0: chunks 0, 1 from 1, 2
        StepResult preempt = trace.ok(new PreemptRequest("r1"));
        assertEquals(List.of(new RequestPreempted("r1"), new FlushRequired(List.of(0L), List.of(1, 2)),
                new BlocksReleased("r1", List.of(1, 2, 3, 4))), preempt.events());
        StepResult match = trace.ok(new MatchPrefix("r1", 0));
        assertEquals(List.of(new PrefixMatchDeferred("r1", 0, DeferReason.TRANSFER_IN_FLIGHT)), match.events());

        StepResult abort = trace.ok(new AbortRequest("r1"));

        assertEquals(List.of(new RequestAborted("r1")), abort.events());
        trace.ok(new RegisterRequest("r2", RaceTrace.tokens(300, 8)));
        StepResult reuse = trace.ok(new AllocateBlocks("r2", List.of(2, 5)));
        if (policy == ReleasePolicy.FENCE) {
            assertEquals(List.of(new FlushRequired(List.of(0L), List.of(2)), new BlocksAllocated("r2", List.of(2, 5), 0)),
                    reuse.events(), "a store flushed at an earlier preemption is fenced at the abort");
        }
        StepResult done = trace.ok(new CompleteTransfer(0, true));
        assertEquals(List.of(new StoreJobCompleted(0, "r1", true), new ChunksStored(RaceTrace.keys(config, prompt, List.of(0, 1)))),
                done.events(), "the aborted request holds no blocks: nothing to release");
        trace.assertAborted(policy, "r1");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(d) abort of a re-admitted request while its load is in flight: no store; load blocks released when it ends")
    void abortPreemptedWhileLoading(ReleasePolicy policy) {
        EngineConfig config = RaceTrace.config(4, 1, 1, 16, policy); // C = 4
        trace = new RaceTrace(config);
        List<Integer> prompt = RaceTrace.tokens(0, 16);

        trace.ok(new RegisterRequest("r1", prompt));
        trace.ok(new MatchPrefix("r1", 0));
        trace.ok(new AllocateBlocks("r1", List.of(1, 2, 3, 4)));
        trace.ok(new ComputeTokens("r1", 8));
        trace.ok(new CompleteTransfer(0, true));
        trace.ok(new PreemptRequest("r1"));
        assertEquals(List.of(new PrefixMatched("r1", 0, 8, List.of(0, 1))), trace.ok(new MatchPrefix("r1", 0)).events());
        StepResult load = trace.ok(new AllocateBlocks("r1", List.of(5, 6, 7, 8), 8));
        assertEquals(List.of(new BlocksAllocated("r1", List.of(5, 6, 7, 8), 8),
                new LoadJobScheduled(1, "r1", List.of(0, 1), RaceTrace.keys(config, prompt, List.of(0, 1)), List.of(5, 6))),
                load.events());
        assertEquals(RequestStatus.LOADING, trace.request("r1").status());

        StepResult abort = trace.ok(new AbortRequest("r1"));

        assertTrue(abort.storeJobs().isEmpty(), "c = L = 0 while loading");
        if (policy == ReleasePolicy.FENCE) {
            assertEquals(List.of(new RequestAborted("r1"), new BlocksReleased("r1", List.of(7, 8))), abort.events(),
                    "all but the blocks the load is writing into");
        } else {
            assertEquals(List.of(new RequestAborted("r1")), abort.events());
        }
        StepResult done = trace.ok(new CompleteTransfer(1, true));
        List<Integer> rest = policy == ReleasePolicy.FENCE ? List.of(5, 6) : List.of(5, 6, 7, 8);
        assertEquals(List.of(new LoadJobCompleted(1, "r1", true), new BlocksReleased("r1", rest)), done.events());
        trace.assertAborted(policy, "r1");
    }

    // ------------------------------------------------------------------------------------------------
    // (e) Preempted and aborted before the next lookup: must never store blocks it no longer holds.
    // ------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(e) a preempted-then-aborted request never stores from the blocks it gave back (now another's)")
    void abortPreemptedNeverStoresFreedBlocks(ReleasePolicy policy) {
        EngineConfig config = RaceTrace.config(4, 1, 1, 3, policy); // C = 4, the tier holds 3 chunks
        trace = new RaceTrace(config);
        List<Integer> other = RaceTrace.tokens(500, 12);
        List<Integer> prompt = RaceTrace.tokens(0, 16);

        // r0 fills the tier with three chunks being written, so r1's offer is deferred (cursor stays 0).
        trace.ok(new RegisterRequest("r0", other));
        trace.ok(new MatchPrefix("r0", 0));
        trace.ok(new AllocateBlocks("r0", List.of(20, 21, 22)));
        trace.ok(new ComputeTokens("r0", 12));

        trace.ok(new RegisterRequest("r1", prompt));
        trace.ok(new MatchPrefix("r1", 0));
        trace.ok(new AllocateBlocks("r1", List.of(1, 2, 3, 4)));
        StepResult compute = trace.ok(new ComputeTokens("r1", 12));
        assertEquals(List.of(new TokensComputed("r1", 12), new StoreDeferred("r1", List.of(0, 1, 2), StoreDeferReason.TIER_FULL)),
                compute.events());
        StepResult preempt = trace.ok(new PreemptRequest("r1"));
        assertEquals(List.of(new RequestPreempted("r1"), new BlocksReleased("r1", List.of(1, 2, 3, 4))), preempt.events());

        // The freed blocks go to r2, and the tier makes room (r0's chunks become ready, evictable).
        trace.ok(new RegisterRequest("r2", RaceTrace.tokens(900, 16)));
        trace.ok(new MatchPrefix("r2", 0));
        trace.ok(new AllocateBlocks("r2", List.of(3, 1, 2)));
        trace.ok(new CompleteTransfer(0, true));

        RequestState before = trace.request("r1");
        assertEquals(0, before.computed());
        assertEquals(0, before.cursor());
        assertTrue(before.blockTable().isEmpty());

        StepResult abort = trace.ok(new AbortRequest("r1"));

        assertEquals(List.of(new RequestAborted("r1")), abort.events(),
                "c = 0 and no blocks after preemption: nothing to store, nothing to release");
        assertTrue(trace.storesOf("r1").isEmpty(), "r1 never stored anything");
        trace.assertAborted(policy, "r1");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(e) preempted with a store in flight, then aborted at once: no new store, the old one fenced (FENCE)")
    void abortPreemptedWithStoreInFlight(ReleasePolicy policy) {
        EngineConfig config = RaceTrace.config(4, 2, 1, 16, policy); // C = 8
        trace = new RaceTrace(config);
        List<Integer> prompt = RaceTrace.tokens(0, 32);

        trace.ok(new RegisterRequest("r1", prompt));
        trace.ok(new MatchPrefix("r1", 0));
        trace.ok(new AllocateBlocks("r1", List.of(1, 2, 3, 4, 5, 6, 7, 8)));
        StepResult compute = trace.ok(new ComputeTokens("r1", 20));        // chunks 0, 1 from blocks 1..4
        assertEquals(List.of(1, 2, 3, 4), compute.storeJobs().get(0).blockIds().flat());
        trace.ok(new AppendTokens("r1", RaceTrace.tokens(32, 8)));                    // n = 40, 5 keys
        StepResult preempt = trace.ok(new PreemptRequest("r1"));
        assertEquals(List.of(new RequestPreempted("r1"), new FlushRequired(List.of(0L), List.of(1, 2, 3, 4)),
                new BlocksReleased("r1", List.of(1, 2, 3, 4, 5, 6, 7, 8))), preempt.events());

        StepResult abort = trace.ok(new AbortRequest("r1"));

        assertEquals(List.of(new RequestAborted("r1")), abort.events(),
                "the table is empty and c = 0: chunks 2..4 (keyed, once allocated) are never stored");
        trace.ok(new RegisterRequest("r2", RaceTrace.tokens(700, 8)));
        StepResult reuse = trace.ok(new AllocateBlocks("r2", List.of(6, 4, 1)));
        if (policy == ReleasePolicy.FENCE) {
            assertEquals(List.of(new FlushRequired(List.of(0L), List.of(4, 1)),
                    new BlocksAllocated("r2", List.of(6, 4, 1), 0)), reuse.events());
        }
        StepResult done = trace.ok(new CompleteTransfer(0, true));
        assertTrue(done.releases().isEmpty());
        trace.assertAborted(policy, "r1");
        trace.assertAllStoresWithin("r1", 2);
    }

    @Test
    @DisplayName("(e) a preempted request re-admitted with fresh blocks, then aborted, stores only what it recomputed")
    void abortPreemptedAfterReadmissionStoresOnlyRecomputedChunks() {
        EngineConfig config = RaceTrace.config(4, 1, 1, 16, ReleasePolicy.FENCE); // C = 4
        trace = new RaceTrace(config);
        List<Integer> prompt = RaceTrace.tokens(0, 16);

        trace.ok(new RegisterRequest("r1", prompt));
        trace.ok(new MatchPrefix("r1", 0));
        trace.ok(new AllocateBlocks("r1", List.of(1, 2, 3, 4)));
        trace.ok(new ComputeTokens("r1", 8));                                 // store 0: chunks 0, 1
        trace.ok(new CompleteTransfer(0, false));                             // lost: not retried
        trace.ok(new PreemptRequest("r1"));
        assertEquals(List.of(new PrefixMatched("r1", 0, 0, List.of())), trace.ok(new MatchPrefix("r1", 0)).events());
        trace.ok(new AllocateBlocks("r1", List.of(9, 10)));
        StepResult recompute = trace.ok(new ComputeTokens("r1", 8));
        assertTrue(recompute.storeJobs().isEmpty(), "the cursor was kept at 2 by the preemption");

        StepResult abort = trace.ok(new AbortRequest("r1"));

        assertTrue(abort.storeJobs().isEmpty());
        assertEquals(List.of(new RequestAborted("r1"), new BlocksReleased("r1", List.of(9, 10))), abort.events());
        trace.assertAllStoresWithin("r1", 2);
    }

    @Test
    @DisplayName("after an abort every command for the request but its completions is REQUEST_TERMINATED; a second abort changes nothing")
    void secondAbortIsRejected() {
        EngineConfig config = RaceTrace.config(4, 1, 1, 16, ReleasePolicy.DELAY_FREE);
        trace = new RaceTrace(config);
        trace.ok(new RegisterRequest("r1", RaceTrace.tokens(0, 8)));
        trace.ok(new MatchPrefix("r1", 0));
        trace.ok(new AllocateBlocks("r1", List.of(1, 2)));
        trace.ok(new ComputeTokens("r1", 8));
        trace.ok(new AbortRequest("r1"));
        EngineState before = trace.state().copy(); // the state is folded in place: the state before is a copy
        for (EngineCommand command : List.of(new AbortRequest("r1"), new FinishRequest("r1", FinishReason.STOPPED),
                new ComputeTokens("r1", 4), new AllocateBlocks("r1", List.of(3)), new MatchPrefix("r1", 0),
                new PreemptRequest("r1"), new AppendTokens("r1", List.of(1)), new RejectTokens("r1", 1))) {
            StepResult result = trace.step(command);
            assertEquals(1, result.events().size(), command.toString());
            CommandRejected rejected = result.rejections().get(0);
            assertEquals(RejectionCode.REQUEST_TERMINATED, rejected.code(), command.toString());
            assertEquals(before, trace.state(), "a rejected command changes no state: " + command);
        }
        assertEquals(RejectionCode.DUPLICATE_REQUEST,
                trace.step(new RegisterRequest("r1", RaceTrace.tokens(0, 8))).rejections().get(0).code());
        StepResult done = trace.ok(new CompleteTransfer(0, true));
        assertEquals(List.of(new BlocksReleased("r1", List.of(1, 2))), done.releases(),
                "the completion of its own job is still accepted, and ends the delayed free");
    }

    // ------------------------------------------------------------------------------------------------
}
