package io.kvledger.simulation;

import java.util.List;

/** The host's own chained hashes of full blocks of tokens, for its GPU prefix cache (never 0). */
final class PrefixHashes {

    private PrefixHashes() {
    }

    /** Hash of the prefix ending with block {@code block}, chained on the hash of the one before. */
    static long next(long previous, List<Integer> tokens, int block, int blockSize) {
        long h = previous * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L;
        for (int i = block * blockSize; i < (block + 1) * blockSize; i++) {
            h = mix(h ^ tokens.get(i));
        }
        return h == 0 ? 1 : h;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
