package io.kvledger.domain.state;

/**
 * A chunk the CPU tier holds.
 *
 * @param ready   loadable; {@code false} while its write is in flight
 * @param pins    loads in flight that read it; a pinned chunk is never evicted
 * @param touched the recency stamp of its last touch (higher is more recent)
 */
public record TierChunk(String key, boolean ready, int pins, long touched) {

    public boolean evictable() {
        return ready && pins == 0;
    }

    TierChunk withReady() {
        return new TierChunk(key, true, pins, touched);
    }

    TierChunk withPins(int newPins) {
        return new TierChunk(key, ready, newPins, touched);
    }

    TierChunk withTouched(long stamp) {
        return new TierChunk(key, ready, pins, stamp);
    }
}
