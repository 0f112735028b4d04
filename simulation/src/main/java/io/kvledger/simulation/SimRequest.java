package io.kvledger.simulation;

import io.kvledger.domain.state.RequestStatus;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/** What the simulated host knows of one request: its tokens and plans, and the GPU blocks it gave it. */
final class SimRequest {

    /** A lookup sent for admission: the GPU-hit blocks held for it (per group), and the answer once it came. */
    static final class Admission {
        final List<List<Integer>> hitBlocks;
        final int hitTokens;
        boolean answered;
        int externalTokens;

        Admission(List<List<Integer>> hitBlocks, int hitTokens) {
            this.hitBlocks = hitBlocks;
            this.hitTokens = hitTokens;
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
    /** The controls of contract 9.1 it is registered with ({@code null}: not given). */
    Integer maxOffloadTokens;
    Integer maxLoadTokens;
    Boolean skipReadingPrefixCache;

    /** The GPU blocks of each group's table ({@code null}: a sliding group's null block). */
    final List<List<Integer>> tables;
    /** Blocks taken from the free pool for each AllocateBlocks not yet answered, in command order. */
    final ArrayDeque<List<Integer>> freshBlocks = new ArrayDeque<>();
    /** Per group, the hashes of its full blocks' token prefixes. */
    final List<List<Long>> prefixHashes;
    /** Per group, the positions below which the host freed every entry outside the window. */
    final int[] freedBelow;
    /** Per group, the blocks indexed for GPU prefix hits. */
    final int[] indexedBlocks;
    /** Whether a load put null entries in a sliding table (inside the window again if the load fails). */
    boolean loadedWithNulls;
    RequestStatus status = RequestStatus.WAITING;
    int computed;
    int generated;
    /** Draft tokens of the forward pass whose output is still to be processed; -1 when none is. */
    int pendingDrafts = -1;
    Admission admission;
    boolean terminalSent;
    /** Times it was preempted without pressure (the workload's random preemptions). */
    int unforcedPreemptions;
    /** The step whose forward pass last computed it (0: none yet). */
    long computedAtStep;

    SimRequest(String id, List<Integer> prompt, int outputTarget, int drafts, boolean reportsLast, long abortAt,
               int groups) {
        this.id = id;
        this.tables = new ArrayList<>(groups);
        this.prefixHashes = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            tables.add(new ArrayList<>());
            prefixHashes.add(new ArrayList<>());
        }
        this.freedBelow = new int[groups];
        this.indexedBlocks = new int[groups];
        this.tokens = new ArrayList<>(prompt);
        this.outputTarget = outputTarget;
        this.drafts = drafts;
        this.reportsLast = reportsLast;
        this.abortAt = abortAt;
    }

    int numTokens() {
        return tokens.size();
    }

    /** Group {@code g}'s table. */
    List<Integer> table(int g) {
        return tables.get(g);
    }

    /** Whether some table still names a block (not only null entries). */
    boolean holdsBlocks() {
        for (List<Integer> table : tables) {
            for (Integer block : table) {
                if (block != null) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The host's hash of group {@code g}'s token prefix that ends with its full block {@code block}: the
     * same tokens hash differently in each group, whose KV differs (group 0's are the single group's).
     */
    long prefixHash(int g, int block, int blockSize) {
        List<Long> hashes = prefixHashes.get(g);
        while (hashes.size() <= block) {
            int next = hashes.size();
            long previous = next == 0 ? g : hashes.get(next - 1);
            hashes.add(PrefixHashes.next(previous, tokens, next, blockSize));
        }
        return hashes.get(block);
    }

    /** The most GPU blocks it can hold at once: its longest token count with drafts, and a lookahead block, in every group. */
    int mostBlocks(HostGroups groups, int stepTokens) {
        int longest = tokens.size() + outputTarget + drafts;
        int blocks = 0;
        for (int g = 0; g < groups.count(); g++) {
            blocks += HostGroups.mostEntries(groups.group(g), longest, stepTokens);
        }
        return blocks;
    }

    boolean isAdmittable() {
        return !terminalSent && admission == null
                && (status == RequestStatus.WAITING || status == RequestStatus.PREEMPTED);
    }

    boolean isRunning() {
        return !terminalSent && status == RequestStatus.RUNNING;
    }
}
