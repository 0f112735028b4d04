package io.kvledger.tests.bench;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreJobScheduled;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A steady-state scheduler: {@code requests} requests decode one token per step; every {@code B}
 * tokens one needs a block, every chunk it completes becomes a store the host completes at the next
 * step, and a request that reaches its length finishes and is replaced by a new one whose prompt is
 * prefilled in one step. Deterministic, so every run measures the same work.
 */
final class DecodeWorkload {

    static final int BLOCK_SIZE = 16;
    private static final int PROMPT = 64;
    private static final int OUTPUT = 256;

    private final int requests;
    private final String[] ids;
    private final int[] known;
    private final int[] blocks;
    private final int[] generation;
    private final List<Long> toComplete = new ArrayList<>();
    private int nextBlock;
    /** With a sliding-window group: its window in tokens (0: one FULL group only), its blocks and how many are freed. */
    private final int window;
    private final List<List<Integer>> windowBlocks = new ArrayList<>();
    private final int[] freed;

    DecodeWorkload(int requests) {
        this(requests, 0);
    }

    /**
     * With {@code window > 0} the engine has groups {@code [FULL B16, SWA B16 w=window]} ({@link #groupedConfig}):
     * every allocation gives both groups a block, and the host frees each sliding-window block once it is
     * outside the window, as vLLM's KV cache manager does ({@code FreeWindowBlocks}).
     */
    DecodeWorkload(int requests, int window) {
        this.window = window;
        this.freed = new int[requests];
        for (int r = 0; r < requests; r++) {
            windowBlocks.add(new ArrayList<>());
        }
        this.requests = requests;
        this.ids = new String[requests];
        this.known = new int[requests];
        this.blocks = new int[requests];
        this.generation = new int[requests];
    }

    /** The commands that bring every request to decoding: registration and prefill, staggered in length. */
    List<EngineCommand> warmUp() {
        List<EngineCommand> step = new ArrayList<>();
        for (int r = 0; r < requests; r++) {
            start(r, step);
            // Stagger the requests' ages so finishes spread evenly over the steps.
            int head = (r * OUTPUT) / requests;
            for (int t = 0; t < head; t++) {
                decode(r, step);
            }
        }
        return step;
    }

    /** One scheduler step: completions of last step's jobs, then one decoded token per request. */
    List<EngineCommand> nextStep() {
        List<EngineCommand> step = new ArrayList<>(requests * 2 + toComplete.size() + 8);
        for (long job : toComplete) {
            step.add(new CompleteTransfer(job));
        }
        toComplete.clear();
        for (int r = 0; r < requests; r++) {
            if (known[r] >= PROMPT + OUTPUT) {
                step.add(new FinishRequest(ids[r], FinishReason.LENGTH));
                generation[r]++;
                start(r, step);
            } else {
                decode(r, step);
            }
        }
        return step;
    }

    /** The config of the grouped workload: a full-attention and a sliding-window group of 16-token blocks. */
    static io.kvledger.domain.config.EngineConfig groupedConfig(int window) {
        return io.kvledger.domain.config.EngineConfig.DEFAULTS.withGroups(List.of(
                io.kvledger.domain.config.KvCacheGroup.full(BLOCK_SIZE),
                io.kvledger.domain.config.KvCacheGroup.slidingWindow(BLOCK_SIZE, window)));
    }

    /** Remembers the jobs a step scheduled, for the host to complete at the next step. */
    void observe(List<EngineEvent> events) {
        for (EngineEvent event : events) {
            if (event instanceof StoreJobScheduled s) {
                toComplete.add(s.jobId());
            } else if (event instanceof LoadJobScheduled l) {
                toComplete.add(l.jobId());
            }
        }
    }

    private void start(int r, List<EngineCommand> step) {
        ids[r] = "req-" + r + "-" + generation[r];
        List<Integer> prompt = IntStream.range(0, PROMPT).map(t -> (t * 31 + r + generation[r] * 7) % 50_000).boxed().toList();
        known[r] = PROMPT;
        blocks[r] = PROMPT / BLOCK_SIZE;
        step.add(new RegisterRequest(ids[r], prompt));
        step.add(new MatchPrefix(ids[r]));
        step.add(allocation(r, blocks[r]));
        step.add(new ComputeTokens(ids[r], PROMPT));
    }

    private AllocateBlocks allocation(int r, int count) {
        if (window == 0) {
            return new AllocateBlocks(ids[r], newBlocks(count));
        }
        if (count == blocks[r] && known[r] == PROMPT) {
            windowBlocks.get(r).clear();
            freed[r] = 0;
        }
        List<Integer> sliding = newBlocks(count);
        windowBlocks.get(r).addAll(sliding);
        return new AllocateBlocks(ids[r], io.kvledger.domain.group.PerGroup.of(newBlocks(count), sliding), 0);
    }

    /** The sliding-window blocks now outside the window of the next token ({@code first(c)}), freed. */
    private void freeOutsideWindow(int r, List<EngineCommand> step) {
        int first = Math.max(0, known[r] - window + 1) / BLOCK_SIZE;
        if (window == 0 || first <= freed[r]) {
            return;
        }
        List<Integer> gone = new ArrayList<>(windowBlocks.get(r).subList(freed[r], first));
        freed[r] = first;
        step.add(new io.kvledger.domain.command.FreeWindowBlocks(ids[r], io.kvledger.domain.group.PerGroup.of(List.of(), gone)));
    }

    private void decode(int r, List<EngineCommand> step) {
        if (known[r] + 1 > blocks[r] * BLOCK_SIZE) {
            step.add(allocation(r, 1));
            blocks[r]++;
        }
        // The token sampled last step is computed now; a new one is sampled.
        step.add(new AppendTokens(ids[r], List.of(known[r] % 50_000)));
        known[r]++;
        step.add(new ComputeTokens(ids[r], 1));
        freeOutsideWindow(r, step);
    }

    private List<Integer> newBlocks(int count) {
        List<Integer> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add(nextBlock++);
        }
        return ids;
    }
}
