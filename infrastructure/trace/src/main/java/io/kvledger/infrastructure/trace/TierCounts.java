package io.kvledger.infrastructure.trace;

import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.TierChunk;
import java.util.Collection;
import java.util.LinkedHashSet;

/**
 * The CPU tier's occupancy: chunks ready, being written, pinned (read by a load). Kept up to date
 * from the chunks an event names, so a trace of a large tier does not walk the whole tier at every
 * event; {@link #of} walks it (at a reset, and in tests as the reference).
 */
record TierCounts(int ready, int writing, int pinned, int capacity) {

    static TierCounts of(CpuTier tier) {
        int ready = 0;
        int writing = 0;
        int pinned = 0;
        for (TierChunk chunk : tier.chunkList()) {
            ready += chunk.ready() ? 1 : 0;
            writing += chunk.ready() ? 0 : 1;
            pinned += chunk.pins() > 0 ? 1 : 0;
        }
        return new TierCounts(ready, writing, pinned, tier.capacity());
    }

    /** The counts after an event that changed at most the chunks of {@code keys}, from {@code before} to {@code after}. */
    TierCounts changed(CpuTier before, CpuTier after, Collection<String> keys) {
        Collection<String> distinct = distinct(keys);
        return without(before, distinct).with(after, distinct);
    }

    /** {@code keys} once each, in order. */
    static Collection<String> distinct(Collection<String> keys) {
        return keys instanceof java.util.Set<?> ? keys : new LinkedHashSet<>(keys);
    }

    /**
     * The first half of {@link #changed}, read before the event is folded: these counts without the chunks of
     * {@code keys} (distinct) as {@code before} holds them.
     */
    TierCounts without(CpuTier before, Collection<String> keys) {
        return add(before, keys, -1, capacity);
    }

    /** The second half, read from the state the event folded to: the chunks of {@code keys} as {@code after} holds them added. */
    TierCounts with(CpuTier after, Collection<String> keys) {
        return add(after, keys, 1, after.capacity());
    }

    private TierCounts add(CpuTier tier, Collection<String> keys, int sign, int newCapacity) {
        int r = ready;
        int w = writing;
        int p = pinned;
        for (String key : keys) {
            TierChunk chunk = tier.chunk(key);
            if (chunk != null) {
                r += sign * (chunk.ready() ? 1 : 0);
                w += sign * (chunk.ready() ? 0 : 1);
                p += sign * (chunk.pins() > 0 ? 1 : 0);
            }
        }
        return new TierCounts(r, w, p, newCapacity);
    }
}
