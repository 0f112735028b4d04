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
 * Sequences 1 to 3 of vllm-offloading.md section 2.2 and what follows from them: aborting a queued request,
 * aborting mid-prefill, aborting with speculative lookahead blocks beyond the computed tokens. Each step goes
 * through {@link RaceTrace}, which checks every store against the state just before it.
 */
class AbortRacesTest {

    private RaceTrace trace;

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
        EngineConfig config = RaceTrace.config(4, 2, 1, 16, policy); // C = 8
        trace = new RaceTrace(config);
        List<Integer> prompt = RaceTrace.tokens(0, 32);             // 4 chunk keys, 0 blocks

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
        trace.assertAborted(policy, "r1");
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(a) abort of a queued request whose prompt is a full hit in the CPU tier loads, stores and releases nothing")
    void abortQueuedRequestWithTierHit(ReleasePolicy policy) {
        EngineConfig config = RaceTrace.config(4, 2, 1, 16, policy); // C = 8
        trace = new RaceTrace(config);
        List<Integer> prompt = RaceTrace.tokens(0, 32);

        // r0 stores the whole prompt, then finishes.
        trace.ok(new RegisterRequest("r0", prompt));
        trace.ok(new MatchPrefix("r0", 0));
        trace.ok(new AllocateBlocks("r0", RaceTrace.blocks(0, 8)));
        StepResult computed = trace.ok(new ComputeTokens("r0", 32));
        assertEquals(List.of(0, 1, 2, 3), computed.storeJobs().get(0).chunkIndices().flat());
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
        for (String key : RaceTrace.keys(config, prompt, List.of(0, 1, 2, 3))) {
            assertEquals(0, trace.state().tier().chunk(key).pins(), "an unused match pins nothing");
            assertTrue(trace.state().tier().isReady(key));
        }
        trace.assertAborted(policy, "r1");
    }

    @Test
    @DisplayName("(a) for contrast: a queued request that finishes (FinishRequest is accepted in WAITING) ends the same way")
    void finishQueuedRequest() {
        trace = new RaceTrace(RaceTrace.config(4, 2, 1, 16, ReleasePolicy.FENCE));
        trace.ok(new RegisterRequest("r1", RaceTrace.tokens(0, 32)));
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
        EngineConfig config = RaceTrace.config(4, 2, 1, 16, policy); // C = 8
        trace = new RaceTrace(config);
        List<Integer> prompt = RaceTrace.tokens(0, 40);             // 5 chunk keys

        trace.ok(new RegisterRequest("r1", prompt));
        trace.ok(new MatchPrefix("r1", 0));
        trace.ok(new AllocateBlocks("r1", List.of(10, 11, 12, 13, 14)));   // 5 blocks: 2 whole chunks
        StepResult first = trace.ok(new ComputeTokens("r1", 12));          // c = 12: chunk 0
        assertEquals(List.of(new TokensComputed("r1", 12),
                        new StoreJobScheduled(0, "r1", List.of(0), RaceTrace.keys(config, prompt, List.of(0)), List.of(10, 11))),
                first.events());
        trace.ok(new AllocateBlocks("r1", List.of(15, 16, 17)));           // next slice: 8 blocks = 4 chunks
        StepResult second = trace.ok(new ComputeTokens("r1", 8));          // c = 20: chunk 1
        assertEquals(List.of(new TokensComputed("r1", 20),
                        new StoreJobScheduled(1, "r1", List.of(1), RaceTrace.keys(config, prompt, List.of(1)), List.of(12, 13))),
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
            trace.ok(new RegisterRequest("r2", RaceTrace.tokens(100, 8)));
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
                    new ChunksStored(RaceTrace.keys(config, prompt, List.of(1))),
                    new BlocksReleased("r1", table)), done1.events());
        }
        trace.assertAborted(policy, "r1");
        trace.assertAllStoresWithin("r1", 2);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(b) a deferred offer made again at the abort stores only the computed chunks, not the prompt")
    void abortMidPrefillStoresOnlyComputedChunks(ReleasePolicy policy) {
        EngineConfig config = RaceTrace.config(4, 2, 2, 2, policy); // C = 8, two workers, the tier holds 2 chunks
        trace = new RaceTrace(config);
        List<Integer> other = RaceTrace.tokens(500, 16);
        List<Integer> prompt = RaceTrace.tokens(0, 40);

        // r0 fills the tier with two chunks still being written (not evictable).
        trace.ok(new RegisterRequest("r0", other));
        trace.ok(new MatchPrefix("r0", 0));
        trace.ok(new AllocateBlocks("r0", RaceTrace.blocks(0, 4)));
        assertEquals(List.of(0, 1), trace.ok(new ComputeTokens("r0", 16)).storeJobs().get(0).chunkIndices().flat());

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
                new ChunksEvicted(RaceTrace.keys(config, other, List.of(1, 0))),
                new StoreJobScheduled(1, "r1", List.of(0, 1), RaceTrace.keys(config, prompt, List.of(0, 1)),
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
                new ChunksStored(RaceTrace.keys(config, prompt, List.of(0, 1)))));
        if (policy == ReleasePolicy.DELAY_FREE) {
            end.add(new BlocksReleased("r1", table));
        }
        assertEquals(end, secondWorker.events());
        trace.assertAborted(policy, "r1");
        trace.assertAllStoresWithin("r1", 2);
    }

    // ------------------------------------------------------------------------------------------------
    // (c) Speculative decoding: lookahead blocks beyond the computed tokens; ComputeTokens past n, RejectTokens.
    // ------------------------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(c) abort after rejected speculative tokens never stores the keyed but uncomputed chunk")
    void abortWithSpeculativeLookahead(ReleasePolicy policy) {
        EngineConfig config = RaceTrace.config(4, 1, 1, 16, policy); // C = 4
        trace = new RaceTrace(config);
        List<Integer> prompt = RaceTrace.tokens(0, 8);

        trace.ok(new RegisterRequest("r1", prompt));
        trace.ok(new MatchPrefix("r1", 0));
        trace.ok(new AllocateBlocks("r1", List.of(1, 2)));
        assertEquals(List.of(0, 1), trace.ok(new ComputeTokens("r1", 8)).storeJobs().get(0).chunkIndices().flat());
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
            trace.ok(new RegisterRequest("r2", RaceTrace.tokens(200, 4)));
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
        trace.assertAborted(policy, "r1");
        trace.assertAllStoresWithin("r1", 2);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(ReleasePolicy.class)
    @DisplayName("(c) abort while draft tokens take c past n stores only up to floor(n/C)")
    void abortWhileSpeculativeTokensInFlight(ReleasePolicy policy) {
        EngineConfig config = RaceTrace.config(4, 1, 1, 16, policy); // C = 4
        trace = new RaceTrace(config);
        List<Integer> prompt = RaceTrace.tokens(0, 6);

        trace.ok(new RegisterRequest("r1", prompt));
        trace.ok(new MatchPrefix("r1", 0));
        trace.ok(new AllocateBlocks("r1", List.of(1, 2, 3, 4)));             // prompt + lookahead slots
        StepResult prefill = trace.ok(new ComputeTokens("r1", 6));          // c = 6: chunk 0
        assertEquals(List.of(0), prefill.storeJobs().get(0).chunkIndices().flat());
        trace.ok(new AppendTokens("r1", List.of(100)));                     // n = 7
        StepResult spec = trace.ok(new ComputeTokens("r1", 5));             // c = 11 > n = 7
        assertTrue(spec.storeJobs().isEmpty(), "O = 7: S = 1 = s");

        StepResult abort = trace.ok(new AbortRequest("r1"));

        assertTrue(abort.storeJobs().isEmpty(), "O = min(11, 7) = 7: chunk 1 has no key and is not known computed");
        trace.ok(new CompleteTransfer(0, true));
        trace.assertAborted(policy, "r1");
        trace.assertAllStoresWithin("r1", 1);
    }
}
