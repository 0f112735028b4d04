package io.kvledger.domain.state;

import java.util.Arrays;

/**
 * The chain hashes made last, by what a hash is a function of: the previous block's hash and the block's
 * tokens. Requests that share a prompt prefix (a system prompt, a conversation's earlier turns) hash the
 * same blocks from the same previous hash, and in the simulator the checking thread folds again what the
 * stepping thread folded: in a 20,000-request simulated log 42 % of the block hashes are made again. A
 * SHA-256 costs microseconds where the JIT gives it no intrinsic; finding it here costs a table slot.
 *
 * <p>One table for every thread: a slot holds an immutable entry (final fields, so safely published
 * without a lock) and is simply overwritten by the next block that maps to it; a reader compares the
 * whole key, so a slot changed under it is at worst a miss. The hash found is the very string that was
 * made, so the keys are the same bytes whichever way they come. Memory is bounded: {@value #SLOTS}
 * entries at most.
 */
final class RecentChainHashes {

    /** A power of two; enough for the shared prefixes of a busy engine to stay found (direct-mapped). */
    static final int SLOTS = 1 << 13;

    private static final class Known {
        private final String previous;
        private final int[] tokens;
        private final String hash;

        private Known(String previous, int[] tokens, String hash) {
            this.previous = previous;
            this.tokens = tokens;
            this.hash = hash;
        }
    }

    private static final Known[] KNOWN = new Known[SLOTS];

    private RecentChainHashes() {
    }

    /** The slot of the block {@code tokens[0 .. length)} chained from {@code previous}. */
    static int slot(String previous, int[] tokens, int length) {
        int h = previous.hashCode();
        for (int i = 0; i < length; i++) {
            h = (h + tokens[i]) * 0x9E3779B1;
        }
        return (h ^ (h >>> 15)) & (SLOTS - 1);
    }

    /** The hash of that block when it is known, else {@code null}. */
    static String find(int slot, String previous, int[] tokens, int length) {
        Known known = KNOWN[slot];
        if (known == null || known.tokens.length != length || !known.previous.equals(previous)
                || !Arrays.equals(known.tokens, 0, length, tokens, 0, length)) {
            return null;
        }
        return known.hash;
    }

    /** Remembers {@code hash} as the hash of that block (the tokens are copied). */
    static void keep(int slot, String previous, int[] tokens, int length, String hash) {
        KNOWN[slot] = new Known(previous, Arrays.copyOf(tokens, length), hash);
    }
}
