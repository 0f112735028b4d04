package io.kvledger.domain.state;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.pcollections.HashTreePMap;
import org.pcollections.PMap;
import org.pcollections.PSortedMap;
import org.pcollections.TreePMap;

/**
 * The CPU tier: chunks by key, ready or being written, with least-recently-used order.
 * Capacity counts every chunk it holds, pinned and written ones included.
 *
 * @param recency touch stamp to key, least recent first
 * @param clock   the last stamp handed out
 */
public record CpuTier(int capacity, PMap<String, TierChunk> chunks, PSortedMap<Long, String> recency, long clock) {

    public static CpuTier empty(int capacity) {
        return new CpuTier(capacity, HashTreePMap.empty(), TreePMap.empty(), 0);
    }

    public int size() {
        return chunks.size();
    }

    public boolean holds(String key) {
        return chunks.containsKey(key);
    }

    public TierChunk chunk(String key) {
        return chunks.get(key);
    }

    public boolean isReady(String key) {
        TierChunk chunk = chunks.get(key);
        return chunk != null && chunk.ready();
    }

    /**
     * Up to {@code count} evictable chunks, least recently used first, leaving out {@code protectedKeys}.
     * Fewer when the tier has fewer.
     */
    public List<String> evictionCandidates(int count, Set<String> protectedKeys) {
        List<String> victims = new ArrayList<>(Math.max(count, 0));
        if (count <= 0) {
            return victims;
        }
        for (String key : recency.values()) {
            TierChunk chunk = chunks.get(key);
            if (chunk.evictable() && !protectedKeys.contains(key)) {
                victims.add(key);
                if (victims.size() == count) {
                    break;
                }
            }
        }
        return victims;
    }

    /** The given keys ordered least recently used first. */
    public List<String> leastRecentFirst(Collection<String> keys) {
        List<String> ordered = new ArrayList<>(keys);
        ordered.sort((a, b) -> Long.compare(chunks.get(a).touched(), chunks.get(b).touched()));
        return ordered;
    }

    /** Adds chunks whose write is in flight; they are not loadable until {@link #ready}. Held keys stay as they are. */
    public CpuTier writing(List<String> keys) {
        PMap<String, TierChunk> newChunks = chunks;
        PSortedMap<Long, String> newRecency = recency;
        long stamp = clock;
        for (String key : keys) {
            if (newChunks.containsKey(key)) {
                continue;
            }
            stamp++;
            newChunks = newChunks.plus(key, new TierChunk(key, false, 0, stamp));
            newRecency = newRecency.plus(stamp, key);
        }
        return new CpuTier(capacity, newChunks, newRecency, stamp);
    }

    /**
     * Makes the touched keys the most recently used, the first key most recent of all (a lower chunk
     * index is more recent than a higher one). Keys the tier does not hold are skipped.
     */
    public CpuTier touch(List<String> keysInChunkOrder) {
        PMap<String, TierChunk> newChunks = chunks;
        PSortedMap<Long, String> newRecency = recency;
        long stamp = clock;
        for (int i = keysInChunkOrder.size() - 1; i >= 0; i--) {
            TierChunk chunk = newChunks.get(keysInChunkOrder.get(i));
            if (chunk == null) {
                continue;
            }
            stamp++;
            newRecency = newRecency.minus(chunk.touched()).plus(stamp, chunk.key());
            newChunks = newChunks.plus(chunk.key(), chunk.withTouched(stamp));
        }
        return new CpuTier(capacity, newChunks, newRecency, stamp);
    }

    /** Chunks whose write completed become loadable; a ready chunk is not a touch. */
    public CpuTier ready(List<String> keys) {
        PMap<String, TierChunk> newChunks = chunks;
        for (String key : keys) {
            TierChunk chunk = newChunks.get(key);
            if (chunk != null) {
                newChunks = newChunks.plus(key, chunk.withReady());
            }
        }
        return new CpuTier(capacity, newChunks, recency, clock);
    }

    public CpuTier remove(Collection<String> keys) {
        PMap<String, TierChunk> newChunks = chunks;
        PSortedMap<Long, String> newRecency = recency;
        for (String key : keys) {
            TierChunk chunk = newChunks.get(key);
            if (chunk != null) {
                newChunks = newChunks.minus(key);
                newRecency = newRecency.minus(chunk.touched());
            }
        }
        return new CpuTier(capacity, newChunks, newRecency, clock);
    }

    public CpuTier pin(List<String> keys) {
        return addPins(keys, 1);
    }

    public CpuTier unpin(List<String> keys) {
        return addPins(keys, -1);
    }

    public CpuTier cleared() {
        return new CpuTier(capacity, HashTreePMap.empty(), TreePMap.empty(), clock);
    }

    private CpuTier addPins(List<String> keys, int delta) {
        PMap<String, TierChunk> newChunks = chunks;
        for (String key : keys) {
            TierChunk chunk = newChunks.get(key);
            if (chunk != null) {
                newChunks = newChunks.plus(key, chunk.withPins(Math.max(0, chunk.pins() + delta)));
            }
        }
        return new CpuTier(capacity, newChunks, recency, clock);
    }
}
