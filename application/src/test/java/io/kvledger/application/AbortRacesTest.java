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
 * The four abort sequences of vllm-offloading.md section 2.2 (and the preempted-then-aborted request of
 * sequence 4), phrased as contract commands and driven through the embedding facade (and so through Axon).
 *
 * <p>Every step goes through {@link Trace}, which folds each produced event onto the state just before
 * it and checks, for every {@code StoreJobScheduled}: {@code keys.size() == chunkIndices.size()},
 * {@code blockIds.size() == F * chunkIndices.size()}, each chunk index below {@code floor(c/C)} (and below
 * {@code floor(O/C)}, the number of keys, and the table) at that moment, and each source block in the
 * request's table at that moment, in the chunk's slots. It also checks that no {@code BlocksReleased} is
 * empty and that the facade's state equals the fold of the whole log.
 */
class AbortRacesTest {

    private Trace trace;

    @AfterEach
    void close() {
        if (trace != null) {
            trace.close();
        }
    }

    // ------------------------------------------------------------------------------------------------
    // (a) Queued, never scheduled (#49118): registered and matched, never allocated, then aborted.
    // ------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(a) abort of a queued request (registered, matched, never allocated) stores and releases nothing")
    void abortQueuedRequest(ReleasePolicy policy) {
        EngineConfig config = config(4, 2, 1, 16, policy); // C = 8
        trace = new Trace(config);
        List<Integer> prompt = tokens(0, 32);             // 4 chunk keys, 0 blocks

        trace.ok(new RegisterRequest("r1", prompt));
        StepResult match = trace.ok(new MatchPrefix("r1", 0));
        assertEquals(List.of(new PrefixMatched("r1", 0, 0, List.of())), match.events());
        assertEquals(4, trace.request("r1").keyCount(2), "the whole prompt has keys");
        assertTrue(trace.request("r1").blockTable().isEmpty(), "no block was ever allocated");

        StepResult abort = trace.ok(new AbortRequest("r1"));

        assertEquals(List.of(new RequestAborted("r1")), abort.events(),
                "a queued abort makes no store (c = 0, no blocks) and no (empty) release");
        assertEquals(RequestStatus.ABORTED, trace.state().statusOf("r1"));
        assertTrue(trace.state().jobs().isEmpty());
        assertTerminated(policy, "r1");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(a) abort of a queued request whose prompt is a full hit in the CPU tier loads, stores and releases nothing")
    void abortQueuedRequestWithTierHit(ReleasePolicy policy) {
        EngineConfig config = config(4, 2, 1, 16, policy); // C = 8
        trace = new Trace(config);
        List<Integer> prompt = tokens(0, 32);

        // r0 stores the whole prompt, then finishes.
        trace.ok(new RegisterRequest("r0", prompt));
        trace.ok(new MatchPrefix("r0", 0));
        trace.ok(new AllocateBlocks("r0", blocks(0, 8)));
        StepResult computed = trace.ok(new ComputeTokens("r0", 32));
        assertEquals(List.of(0, 1, 2, 3), computed.storeJobs().get(0).chunkIndices());
        trace.ok(new CompleteTransfer(0, true));
        trace.ok(new FinishRequest("r0", FinishReason.STOPPED));

        // r1: same prompt, queued: its match finds all four chunks, yet it is never allocated.
        trace.ok(new RegisterRequest("r1", prompt));
        StepResult match = trace.ok(new MatchPrefix("r1", 0));
        assertEquals(List.of(new PrefixMatched("r1", 0, 32, List.of(0, 1, 2, 3))), match.events());

        StepResult abort = trace.ok(new AbortRequest("r1"));

        assertEquals(List.of(new RequestAborted("r1")), abort.events(),
                "4 keys and 0 block ids: no store, no load, no release");
        assertTrue(trace.state().jobs().isEmpty());
        for (String key : keys(config, prompt, List.of(0, 1, 2, 3))) {
            assertEquals(0, trace.state().tier().chunk(key).pins(), "an unused match pins nothing");
            assertTrue(trace.state().tier().isReady(key));
        }
        assertTerminated(policy, "r1");
    }

    @Test
    @DisplayName("(a) for contrast: a queued request that finishes (FinishRequest is accepted in WAITING) ends the same way")
    void finishQueuedRequest() {
        trace = new Trace(config(4, 2, 1, 16, ReleasePolicy.FENCE));
        trace.ok(new RegisterRequest("r1", tokens(0, 32)));
        trace.ok(new MatchPrefix("r1", 0));

        StepResult finish = trace.ok(new FinishRequest("r1", FinishReason.LENGTH));

        assertEquals(List.of(new RequestFinished("r1", FinishReason.LENGTH)), finish.events());
        assertEquals(RequestStatus.FINISHED, trace.state().statusOf("r1"));
    }

    // ------------------------------------------------------------------------------------------------
    // (b) Mid-prefill (chunked prefill): the table covers more than the computed tokens, F = 2.
    // ------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(b) abort mid-prefill with a table longer than the computed tokens stores nothing past floor(c/C)")
    void abortMidPrefill(ReleasePolicy policy) {
        EngineConfig config = config(4, 2, 1, 16, policy); // C = 8
        trace = new Trace(config);
        List<Integer> prompt = tokens(0, 40);             // 5 chunk keys

        trace.ok(new RegisterRequest("r1", prompt));
        trace.ok(new MatchPrefix("r1", 0));
        trace.ok(new AllocateBlocks("r1", List.of(10, 11, 12, 13, 14)));   // 5 blocks: 2 whole chunks
        StepResult first = trace.ok(new ComputeTokens("r1", 12));          // c = 12: chunk 0
        assertEquals(List.of(new TokensComputed("r1", 12),
                        new StoreJobScheduled(0, "r1", List.of(0), keys(config, prompt, List.of(0)), List.of(10, 11))),
                first.events());
        trace.ok(new AllocateBlocks("r1", List.of(15, 16, 17)));           // next slice: 8 blocks = 4 chunks
        StepResult second = trace.ok(new ComputeTokens("r1", 8));          // c = 20: chunk 1
        assertEquals(List.of(new TokensComputed("r1", 20),
                        new StoreJobScheduled(1, "r1", List.of(1), keys(config, prompt, List.of(1)), List.of(12, 13))),
                second.events());

        RequestState before = trace.request("r1");
        assertEquals(20, before.computed());
        assertEquals(8, before.blockTable().size(), "the table covers 32 tokens, c = 20");
        assertEquals(5, before.keyCount(2), "the prompt has 5 keys");

        StepResult abort = trace.ok(new AbortRequest("r1"));

        assertTrue(abort.storeJobs().isEmpty(), "S = min(floor(20/8), 8/2, 5) = 2 = s: nothing more to store");
        List<Integer> table = List.of(10, 11, 12, 13, 14, 15, 16, 17);
        if (policy == ReleasePolicy.FENCE) {
            assertEquals(List.of(new RequestAborted("r1"), new BlocksReleased("r1", table)), abort.events());
            // Blocks 10..13 are fenced by stores 0 and 1: handing one out again needs a flush first.
            trace.ok(new RegisterRequest("r2", tokens(100, 8)));
            StepResult reuse = trace.ok(new AllocateBlocks("r2", List.of(13, 11, 14)));
            assertEquals(List.of(new FlushRequired(List.of(0L, 1L), List.of(13, 11)),
                    new BlocksAllocated("r2", List.of(13, 11, 14), 0)), reuse.events());
            StepResult done0 = trace.ok(new CompleteTransfer(0, true));
            assertTrue(done0.releases().isEmpty(), "already released at the abort");
            StepResult again = trace.ok(new AllocateBlocks("r2", List.of(10, 12)));
            assertEquals(List.of(new FlushRequired(List.of(1L), List.of(12)),
                    new BlocksAllocated("r2", List.of(10, 12), 0)), again.events(), "block 10 is no longer fenced");
            trace.ok(new CompleteTransfer(1, true));
        } else {
            assertEquals(List.of(new RequestAborted("r1")), abort.events(), "DELAY_FREE: stores 0 and 1 in flight");
            StepResult done0 = trace.ok(new CompleteTransfer(0, true));
            assertTrue(done0.releases().isEmpty(), "store 1 is still in flight");
            StepResult done1 = trace.ok(new CompleteTransfer(1, true));
            assertEquals(List.of(new StoreJobCompleted(1, "r1", true),
                    new ChunksStored(keys(config, prompt, List.of(1))),
                    new BlocksReleased("r1", table)), done1.events());
        }
        assertTerminated(policy, "r1");
        trace.assertAllStoresWithin("r1", 2);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(b) a deferred offer made again at the abort stores only the computed chunks, not the prompt")
    void abortMidPrefillStoresOnlyComputedChunks(ReleasePolicy policy) {
        EngineConfig config = config(4, 2, 2, 2, policy); // C = 8, two workers, the tier holds 2 chunks
        trace = new Trace(config);
        List<Integer> other = tokens(500, 16);
        List<Integer> prompt = tokens(0, 40);

        // r0 fills the tier with two chunks still being written (not evictable).
        trace.ok(new RegisterRequest("r0", other));
        trace.ok(new MatchPrefix("r0", 0));
        trace.ok(new AllocateBlocks("r0", blocks(0, 4)));
        assertEquals(List.of(0, 1), trace.ok(new ComputeTokens("r0", 16)).storeJobs().get(0).chunkIndices());

        trace.ok(new RegisterRequest("r1", prompt));
        trace.ok(new MatchPrefix("r1", 0));
        trace.ok(new AllocateBlocks("r1", List.of(10, 11, 12, 13, 14, 15, 16, 17)));
        StepResult compute = trace.ok(new ComputeTokens("r1", 20));
        assertEquals(List.of(new TokensComputed("r1", 20),
                new StoreDeferred("r1", List.of(0, 1), StoreDeferReason.TIER_FULL)), compute.events());
        assertEquals(0, trace.request("r1").cursor(), "a deferred offer keeps the cursor");

        // r0's store ends on both workers: its chunks become ready and evictable.
        assertEquals(List.of(new TransferAcknowledged(0, "r0", true)), trace.ok(new CompleteTransfer(0, true)).events());
        trace.ok(new CompleteTransfer(0, true));

        StepResult abort = trace.ok(new AbortRequest("r1"));

        List<Integer> table = List.of(10, 11, 12, 13, 14, 15, 16, 17);
        List<EngineEvent> expected = new ArrayList<>(List.of(new RequestAborted("r1"),
                new ChunksEvicted(keys(config, other, List.of(1, 0))),
                new StoreJobScheduled(1, "r1", List.of(0, 1), keys(config, prompt, List.of(0, 1)),
                        List.of(10, 11, 12, 13))));
        if (policy == ReleasePolicy.FENCE) {
            expected.add(new BlocksReleased("r1", table));
        }
        assertEquals(expected, abort.events(),
                "the abort's store is chunks 0..1 (c = 20), not 0..3 (the table) or 0..4 (the prompt's keys)");
        assertEquals(2, trace.request("r1").cursor());

        StepResult firstWorker = trace.ok(new CompleteTransfer(1, true));
        assertEquals(List.of(new TransferAcknowledged(1, "r1", true)), firstWorker.events(),
                "one worker is not the end of the job: nothing is released yet under either policy");
        StepResult secondWorker = trace.ok(new CompleteTransfer(1, true));
        List<EngineEvent> end = new ArrayList<>(List.of(new StoreJobCompleted(1, "r1", true),
                new ChunksStored(keys(config, prompt, List.of(0, 1)))));
        if (policy == ReleasePolicy.DELAY_FREE) {
            end.add(new BlocksReleased("r1", table));
        }
        assertEquals(end, secondWorker.events());
        assertTerminated(policy, "r1");
        trace.assertAllStoresWithin("r1", 2);
    }

    // ------------------------------------------------------------------------------------------------
    // (c) Speculative decoding: lookahead blocks beyond the computed tokens; ComputeTokens past n, RejectTokens.
    // ------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(c) abort after rejected speculative tokens never stores the keyed but uncomputed chunk")
    void abortWithSpeculativeLookahead(ReleasePolicy policy) {
        EngineConfig config = config(4, 1, 1, 16, policy); // C = 4
        trace = new Trace(config);
        List<Integer> prompt = tokens(0, 8);

        trace.ok(new RegisterRequest("r1", prompt));
        trace.ok(new MatchPrefix("r1", 0));
        trace.ok(new AllocateBlocks("r1", List.of(1, 2)));
        assertEquals(List.of(0, 1), trace.ok(new ComputeTokens("r1", 8)).storeJobs().get(0).chunkIndices());
        trace.ok(new AppendTokens("r1", List.of(100)));                     // n = 9
        trace.ok(new AllocateBlocks("r1", List.of(3, 4, 5)));               // lookahead slots: table 5 blocks
        StepResult spec = trace.ok(new ComputeTokens("r1", 4));             // 1 real + 3 draft tokens: c = 12 > n
        assertEquals(List.of(new TokensComputed("r1", 12)), spec.events(), "O = min(12, 9) = 9: S = 2 = s");

        // c = 12 - 5 = 7 is below max(n - 1, s*C) = 8.
        StepResult tooFar = trace.step(new RejectTokens("r1", 5));
        assertEquals(1, tooFar.rejections().size());
        assertEquals(RejectionCode.INVALID_ARGUMENT, tooFar.rejections().get(0).code());
        assertEquals(12, trace.request("r1").computed(), "a rejected command changes nothing");

        assertEquals(List.of(new TokensRejected("r1", 11)), trace.ok(new RejectTokens("r1", 1)).events());
        trace.ok(new AppendTokens("r1", List.of(101, 102, 103)));           // n = 12: chunk 2 now has a key

        RequestState before = trace.request("r1");
        assertEquals(11, before.computed());
        assertEquals(12, before.numTokens());
        assertEquals(3, before.keyCount(1), "chunk 2 has a key");
        assertEquals(5, before.blockTable().size(), "and a block (3)");

        StepResult abort = trace.ok(new AbortRequest("r1"));

        assertTrue(abort.storeJobs().isEmpty(), "token 11's KV was never computed: chunk 2 must not be stored");
        if (policy == ReleasePolicy.FENCE) {
            assertEquals(List.of(new RequestAborted("r1"), new BlocksReleased("r1", List.of(1, 2, 3, 4, 5))),
                    abort.events());
            trace.ok(new RegisterRequest("r2", tokens(200, 4)));
            assertEquals(List.of(new FlushRequired(List.of(0L), List.of(2)),
                            new BlocksAllocated("r2", List.of(2, 3), 0)),
                    trace.ok(new AllocateBlocks("r2", List.of(2, 3))).events(),
                    "store 0 still reads block 2; block 3 was never a store's source");
        } else {
            assertEquals(List.of(new RequestAborted("r1")), abort.events());
        }
        StepResult done = trace.ok(new CompleteTransfer(0, true));
        assertEquals(policy == ReleasePolicy.DELAY_FREE ? List.of(new BlocksReleased("r1", List.of(1, 2, 3, 4, 5)))
                : List.of(), done.releases());
        assertTerminated(policy, "r1");
        trace.assertAllStoresWithin("r1", 2);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(c) abort while draft tokens take c past n stores only up to floor(n/C)")
    void abortWhileSpeculativeTokensInFlight(ReleasePolicy policy) {
        EngineConfig config = config(4, 1, 1, 16, policy); // C = 4
        trace = new Trace(config);
        List<Integer> prompt = tokens(0, 6);

        trace.ok(new RegisterRequest("r1", prompt));
        trace.ok(new MatchPrefix("r1", 0));
        trace.ok(new AllocateBlocks("r1", List.of(1, 2, 3, 4)));             // prompt + lookahead slots
        StepResult prefill = trace.ok(new ComputeTokens("r1", 6));          // c = 6: chunk 0
        assertEquals(List.of(0), prefill.storeJobs().get(0).chunkIndices());
        trace.ok(new AppendTokens("r1", List.of(100)));                     // n = 7
        StepResult spec = trace.ok(new ComputeTokens("r1", 5));             // c = 11 > n = 7
        assertTrue(spec.storeJobs().isEmpty(), "O = 7: S = 1 = s");

        StepResult abort = trace.ok(new AbortRequest("r1"));

        assertTrue(abort.storeJobs().isEmpty(), "O = min(11, 7) = 7: chunk 1 has no key and is not known computed");
        trace.ok(new CompleteTransfer(0, true));
        assertTerminated(policy, "r1");
        trace.assertAllStoresWithin("r1", 1);
    }

    // ------------------------------------------------------------------------------------------------
    // (d) Preempted, then a failed re-admission (#52211): MatchPrefix, no allocation, abort.
    // ------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(d) abort of a preempted request after a failed re-admission (match, no allocation) does nothing more")
    void abortPreemptedAfterFailedReadmission(ReleasePolicy policy) {
        EngineConfig config = config(4, 1, 1, 16, policy); // C = 4
        trace = new Trace(config);
        List<Integer> prompt = tokens(0, 16);

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
        for (String key : keys(config, prompt, List.of(0, 1))) {
            assertEquals(0, trace.state().tier().chunk(key).pins(), "the unused match pins nothing");
        }
        assertTerminated(policy, "r1");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(d) a store flushed at preemption defers the re-admission; the abort then fences its blocks (FENCE)")
    void abortPreemptedWithStoreInFlightAfterDeferredMatch(ReleasePolicy policy) {
        EngineConfig config = config(4, 1, 1, 16, policy); // C = 4
        trace = new Trace(config);
        List<Integer> prompt = tokens(0, 16);

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
        trace.ok(new RegisterRequest("r2", tokens(300, 8)));
        StepResult reuse = trace.ok(new AllocateBlocks("r2", List.of(2, 5)));
        if (policy == ReleasePolicy.FENCE) {
            assertEquals(List.of(new FlushRequired(List.of(0L), List.of(2)), new BlocksAllocated("r2", List.of(2, 5), 0)),
                    reuse.events(), "a store flushed at an earlier preemption is fenced at the abort");
        }
        StepResult done = trace.ok(new CompleteTransfer(0, true));
        assertEquals(List.of(new StoreJobCompleted(0, "r1", true), new ChunksStored(keys(config, prompt, List.of(0, 1)))),
                done.events(), "the aborted request holds no blocks: nothing to release");
        assertTerminated(policy, "r1");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(d) abort of a re-admitted request while its load is in flight: no store; load blocks released when it ends")
    void abortPreemptedWhileLoading(ReleasePolicy policy) {
        EngineConfig config = config(4, 1, 1, 16, policy); // C = 4
        trace = new Trace(config);
        List<Integer> prompt = tokens(0, 16);

        trace.ok(new RegisterRequest("r1", prompt));
        trace.ok(new MatchPrefix("r1", 0));
        trace.ok(new AllocateBlocks("r1", List.of(1, 2, 3, 4)));
        trace.ok(new ComputeTokens("r1", 8));
        trace.ok(new CompleteTransfer(0, true));
        trace.ok(new PreemptRequest("r1"));
        assertEquals(List.of(new PrefixMatched("r1", 0, 8, List.of(0, 1))), trace.ok(new MatchPrefix("r1", 0)).events());
        StepResult load = trace.ok(new AllocateBlocks("r1", List.of(5, 6, 7, 8), 8));
        assertEquals(List.of(new BlocksAllocated("r1", List.of(5, 6, 7, 8), 8),
                new LoadJobScheduled(1, "r1", List.of(0, 1), keys(config, prompt, List.of(0, 1)), List.of(5, 6))),
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
        assertTerminated(policy, "r1");
    }

    // ------------------------------------------------------------------------------------------------
    // (e) Preempted and aborted before the next lookup: must never store blocks it no longer holds.
    // ------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(e) a preempted-then-aborted request never stores from the blocks it gave back (now another's)")
    void abortPreemptedNeverStoresFreedBlocks(ReleasePolicy policy) {
        EngineConfig config = config(4, 1, 1, 3, policy); // C = 4, the tier holds 3 chunks
        trace = new Trace(config);
        List<Integer> other = tokens(500, 12);
        List<Integer> prompt = tokens(0, 16);

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
        trace.ok(new RegisterRequest("r2", tokens(900, 16)));
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
        assertTerminated(policy, "r1");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(e) preempted with a store in flight, then aborted at once: no new store, the old one fenced (FENCE)")
    void abortPreemptedWithStoreInFlight(ReleasePolicy policy) {
        EngineConfig config = config(4, 2, 1, 16, policy); // C = 8
        trace = new Trace(config);
        List<Integer> prompt = tokens(0, 32);

        trace.ok(new RegisterRequest("r1", prompt));
        trace.ok(new MatchPrefix("r1", 0));
        trace.ok(new AllocateBlocks("r1", List.of(1, 2, 3, 4, 5, 6, 7, 8)));
        StepResult compute = trace.ok(new ComputeTokens("r1", 20));        // chunks 0, 1 from blocks 1..4
        assertEquals(List.of(1, 2, 3, 4), compute.storeJobs().get(0).blockIds());
        trace.ok(new AppendTokens("r1", tokens(32, 8)));                    // n = 40, 5 keys
        StepResult preempt = trace.ok(new PreemptRequest("r1"));
        assertEquals(List.of(new RequestPreempted("r1"), new FlushRequired(List.of(0L), List.of(1, 2, 3, 4)),
                new BlocksReleased("r1", List.of(1, 2, 3, 4, 5, 6, 7, 8))), preempt.events());

        StepResult abort = trace.ok(new AbortRequest("r1"));

        assertEquals(List.of(new RequestAborted("r1")), abort.events(),
                "the table is empty and c = 0: chunks 2..4 (keyed, once allocated) are never stored");
        trace.ok(new RegisterRequest("r2", tokens(700, 8)));
        StepResult reuse = trace.ok(new AllocateBlocks("r2", List.of(6, 4, 1)));
        if (policy == ReleasePolicy.FENCE) {
            assertEquals(List.of(new FlushRequired(List.of(0L), List.of(4, 1)),
                    new BlocksAllocated("r2", List.of(6, 4, 1), 0)), reuse.events());
        }
        StepResult done = trace.ok(new CompleteTransfer(0, true));
        assertTrue(done.releases().isEmpty());
        assertTerminated(policy, "r1");
        trace.assertAllStoresWithin("r1", 2);
    }

    @Test
    @DisplayName("(e) a preempted request re-admitted with fresh blocks, then aborted, stores only what it recomputed")
    void abortPreemptedAfterReadmissionStoresOnlyRecomputedChunks() {
        EngineConfig config = config(4, 1, 1, 16, ReleasePolicy.FENCE); // C = 4
        trace = new Trace(config);
        List<Integer> prompt = tokens(0, 16);

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
        EngineConfig config = config(4, 1, 1, 16, ReleasePolicy.DELAY_FREE);
        trace = new Trace(config);
        trace.ok(new RegisterRequest("r1", tokens(0, 8)));
        trace.ok(new MatchPrefix("r1", 0));
        trace.ok(new AllocateBlocks("r1", List.of(1, 2)));
        trace.ok(new ComputeTokens("r1", 8));
        trace.ok(new AbortRequest("r1"));
        EngineState before = trace.state();
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
                trace.step(new RegisterRequest("r1", tokens(0, 8))).rejections().get(0).code());
        StepResult done = trace.ok(new CompleteTransfer(0, true));
        assertEquals(List.of(new BlocksReleased("r1", List.of(1, 2))), done.releases(),
                "the completion of its own job is still accepted, and ends the delayed free");
    }

    // ------------------------------------------------------------------------------------------------

    private void assertTerminated(ReleasePolicy policy, String requestId) {
        EngineState state = trace.state();
        assertEquals(RequestStatus.ABORTED, state.statusOf(requestId));
        RequestState request = state.liveRequest(requestId);
        if (request != null) {
            fail("request " + requestId + " still holds " + request.blockTable() + " with jobs " + request.jobIds()
                    + " under " + policy);
        }
    }

    static EngineConfig config(int b, int f, int workers, int capacity, ReleasePolicy policy) {
        return new EngineConfig(b, f, workers, capacity, policy, null, false);
    }

    static List<Integer> tokens(int first, int count) {
        return IntStream.range(first, first + count).boxed().toList();
    }

    static List<Integer> blocks(int first, int count) {
        return tokens(first, count);
    }

    static List<String> keys(EngineConfig config, List<Integer> tokens, List<Integer> chunks) {
        BlockHashes hashes = BlockHashes.of(config.gpuBlockSize(), tokens);
        int f = config.blocksPerChunk();
        return chunks.stream().map(chunk -> hashes.get(chunk * f + f - 1)).toList();
    }

    /**
     * Drives a {@link KvLedger} one step at a time and checks every produced event against the state just
     * before it (the state before the step, with the step's earlier events folded on).
     */
    static final class Trace implements AutoCloseable {
        private final KvLedger ledger;
        private final EngineConfig config;
        private final List<EngineEvent> log = new ArrayList<>();
        private final List<StoreJobScheduled> stores = new ArrayList<>();
        private EngineState state;

        Trace(EngineConfig config) {
            this.config = config;
            this.ledger = KvLedger.builder().config(config).build();
            this.log.add(ledger.configured());
            this.state = ledger.state();
            assertEquals(EngineFold.fold(log), state);
        }

        /** One step that must not be rejected. */
        StepResult ok(EngineCommand command) {
            StepResult result = step(command);
            assertEquals(List.of(), result.rejections(), () -> "unexpected rejection of " + command);
            return result;
        }

        StepResult step(EngineCommand... commands) {
            StepResult result = ledger.step(List.of(commands));
            EngineState at = state;
            for (EngineEvent event : result.events()) {
                if (event instanceof StoreJobScheduled store) {
                    checkStore(at, store);
                    stores.add(store);
                }
                if (event instanceof BlocksReleased released) {
                    assertFalse(released.blockIds().isEmpty(), "BlocksReleased is never empty: " + released);
                }
                at = EngineFold.evolve(at, event);
                log.add(event);
            }
            assertEquals(at, result.state(), "the step's state is its events folded onto the state before it");
            assertEquals(EngineFold.fold(log), result.state(), "replaying the whole log gives the live state");
            assertEquals(result.state(), ledger.state());
            state = result.state();
            return result;
        }

        private void checkStore(EngineState at, StoreJobScheduled store) {
            RequestState request = at.liveRequest(store.requestId());
            assertNotNull(request, "a store of a request that is not live: " + store);
            int f = config.blocksPerChunk();
            int c = config.chunkTokens();
            int n = store.chunkIndices().size();
            assertTrue(n > 0, "a store job stores something: " + store);
            assertEquals(n, store.keys().size(), "len(keys) == len(chunkIndices): " + store);
            assertEquals(f * n, store.blockIds().size(), "len(blockIds) == F * len(chunkIndices): " + store);
            int computedChunks = request.computed() / c;
            int boundChunks = StoreBound.tokenBound(config, request) / c;
            for (int i = 0; i < n; i++) {
                int chunk = store.chunkIndices().get(i);
                assertTrue(chunk >= request.cursor(), "chunk " + chunk + " is below the cursor " + request.cursor());
                assertTrue(chunk < computedChunks, "chunk " + chunk + " reaches past c = " + request.computed()
                        + " (floor(c/C) = " + computedChunks + "): " + store);
                assertTrue(chunk < boundChunks, "chunk " + chunk + " reaches past O: " + store);
                assertTrue(chunk < request.keyCount(f), "chunk " + chunk + " has no key yet: " + store);
                assertEquals(request.key(chunk, f), store.keys().get(i), "the key of chunk " + chunk);
                for (int j = 0; j < f; j++) {
                    Integer block = store.blockIds().get(i * f + j);
                    assertTrue(request.blockTable().contains(block), "source block " + block
                            + " is not in the table " + request.blockTable() + " of " + store.requestId());
                    assertTrue(chunk * f + j < request.blockTable().size(), "chunk " + chunk + " lies past the table");
                    assertEquals(request.blockTable().get(chunk * f + j), block,
                            "block " + j + " of chunk " + chunk + " is the table's slot " + (chunk * f + j));
                }
            }
        }

        EngineState state() {
            return state;
        }

        RequestState request(String requestId) {
            RequestState request = state.liveRequest(requestId);
            assertNotNull(request, requestId + " is not live");
            return request;
        }

        List<StoreJobScheduled> storesOf(String requestId) {
            return stores.stream().filter(s -> s.requestId().equals(requestId)).toList();
        }

        /** Every store the request ever got lies below chunk {@code end}. */
        void assertAllStoresWithin(String requestId, int end) {
            for (StoreJobScheduled store : storesOf(requestId)) {
                for (int chunk : store.chunkIndices()) {
                    assertTrue(chunk < end, "chunk " + chunk + " of " + store + " is at or past " + end);
                }
            }
        }

        @Override
        public void close() {
            ledger.close();
        }
    }
}
