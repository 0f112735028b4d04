package io.kvledger.domain.config;

import java.util.Objects;

/**
 * One KV cache group (contract section 7.1): its own block size, chunk size, keys, block table and
 * cursor.
 *
 * @param kind          full attention or sliding window
 * @param blockSize     {@code B_g}, tokens per GPU block of the group
 * @param slidingWindow {@code w_g}, the window in tokens; {@code null} exactly for a {@code FULL} group
 * @param eagle         an EAGLE/MTP draft group ({@code x_g} = 1)
 */
public record KvCacheGroup(GroupKind kind, int blockSize, Integer slidingWindow, boolean eagle) {

    public KvCacheGroup {
        Objects.requireNonNull(kind, "kind");
        if (blockSize < 1) {
            throw new IllegalArgumentException("blockSize must be >= 1, was " + blockSize);
        }
        if (kind == GroupKind.SLIDING_WINDOW) {
            if (slidingWindow == null || slidingWindow < 1) {
                throw new IllegalArgumentException("slidingWindow must be >= 1 for a SLIDING_WINDOW group, was " + slidingWindow);
            }
        } else if (slidingWindow != null) {
            throw new IllegalArgumentException("slidingWindow is not allowed for a FULL group");
        }
    }

    public static KvCacheGroup full(int blockSize) {
        return new KvCacheGroup(GroupKind.FULL, blockSize, null, false);
    }

    public static KvCacheGroup slidingWindow(int blockSize, int window) {
        return new KvCacheGroup(GroupKind.SLIDING_WINDOW, blockSize, window, false);
    }

    public KvCacheGroup asEagle() {
        return new KvCacheGroup(kind, blockSize, slidingWindow, true);
    }

    public boolean isSliding() {
        return kind == GroupKind.SLIDING_WINDOW;
    }

    /** {@code x_g}: 1 for an eagle group, else 0. */
    public int eagleChunks() {
        return eagle ? 1 : 0;
    }

    /**
     * The window function {@code first_g(t)}: the first table position inside the window of the token
     * after {@code t} computed ones; 0 for a {@code FULL} group.
     */
    public int firstInWindow(long t) {
        if (!isSliding()) {
            return 0;
        }
        return (int) (Math.max(0L, t - slidingWindow + 1) / blockSize);
    }
}
