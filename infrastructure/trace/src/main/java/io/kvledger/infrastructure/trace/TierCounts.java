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
        int r = ready;
        int w = writing;
        int p = pinned;
        for (String key : keys instanceof java.util.Set<?> ? keys : new LinkedHashSet<>(keys)) {
            TierChunk was = before.chunk(key);
            TierChunk is = after.chunk(key);
            if (was != null) {
                r -= was.ready() ? 1 : 0;
                w -= was.ready() ? 0 : 1;
                p -= was.pins() > 0 ? 1 : 0;
            }
            if (is != null) {
                r += is.ready() ? 1 : 0;
                w += is.ready() ? 0 : 1;
                p += is.pins() > 0 ? 1 : 0;
            }
        }
        return new TierCounts(r, w, p, after.capacity());
    }
}
