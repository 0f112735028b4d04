package io.kvledger.infrastructure.simulation;

import io.kvledger.domain.state.RequestStatus;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/** What the simulated host knows of one request: its tokens and plans, and the GPU blocks it gave it. */
final class SimRequest {

    /** A lookup sent for admission: the GPU-hit blocks held for it, and the answer once it came. */
    static final class Admission {
        final List<Integer> hitBlocks;
        boolean answered;
        int externalTokens;

        Admission(List<Integer> hitBlocks) {
            this.hitBlocks = hitBlocks;
        }
    }

    final String id;
    final List<Integer> tokens;
    final int outputTarget;
    /** Draft tokens per decode step (0: no speculative decoding). */
    final int drafts;
    /** Whether the host reports the last sampled token's compute before it finishes (asynchronous scheduling). */
    final boolean reportsLast;
    /** The step at which it is aborted, or -1. */
    final long abortAt;

    final List<Integer> table = new ArrayList<>();
    /** Blocks taken from the free pool for each AllocateBlocks not yet answered, in command order. */
    final ArrayDeque<List<Integer>> freshBlocks = new ArrayDeque<>();
    final List<Long> prefixHashes = new ArrayList<>();
    RequestStatus status = RequestStatus.WAITING;
    int computed;
    int generated;
    /** Draft tokens of the forward pass whose output is still to be processed; -1 when none is. */
    int pendingDrafts = -1;
    Admission admission;
    boolean terminalSent;
    int indexedBlocks;
    /** Times it was preempted without pressure (the workload's random preemptions). */
    int unforcedPreemptions;
    /** The step whose forward pass last computed it (0: none yet). */
    long computedAtStep;

    SimRequest(String id, List<Integer> prompt, int outputTarget, int drafts, boolean reportsLast, long abortAt) {
        this.id = id;
        this.tokens = new ArrayList<>(prompt);
        this.outputTarget = outputTarget;
        this.drafts = drafts;
        this.reportsLast = reportsLast;
        this.abortAt = abortAt;
    }

    int numTokens() {
        return tokens.size();
    }

    /** The host's hash of the token prefix that ends with full block {@code block}. */
    long prefixHash(int block, int blockSize) {
        while (prefixHashes.size() <= block) {
            int next = prefixHashes.size();
            long previous = next == 0 ? 0 : prefixHashes.get(next - 1);
            prefixHashes.add(PrefixHashes.next(previous, tokens, next, blockSize));
        }
        return prefixHashes.get(block);
    }

    /** The most GPU blocks it can hold at once: its longest token count with drafts, and a lookahead block. */
    int mostBlocks(int blockSize) {
        return (tokens.size() + outputTarget + drafts + blockSize - 1) / blockSize + 1;
    }

    boolean isAdmittable() {
        return !terminalSent && admission == null
                && (status == RequestStatus.WAITING || status == RequestStatus.PREEMPTED);
    }

    boolean isRunning() {
        return !terminalSent && status == RequestStatus.RUNNING;
    }
}
