package io.kvledger.domain.state;

import io.vavr.collection.HashMap;
import io.vavr.collection.TreeMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * The CPU tier: chunks by key, ready or being written, with least-recently-used order.
 * Capacity counts every chunk it holds, pinned and written ones included.
 *
 * @param recency touch stamp to key, least recent first
 * @param clock   the last stamp handed out
 */
public record CpuTier(int capacity, HashMap<String, TierChunk> chunks, TreeMap<Long, String> recency, long clock) {

    public static CpuTier empty(int capacity) {
        return new CpuTier(capacity, HashMap.empty(), TreeMap.empty(), 0);
    }

    public int size() {
        return chunks.size();
    }

    public boolean holds(String key) {
        return chunks.containsKey(key);
    }

    /** The chunk of {@code key}, or {@code null} when the tier does not hold it. */
    public TierChunk chunk(String key) {
        return chunks.getOrElse(key, null);
    }

    public boolean isReady(String key) {
        TierChunk chunk = chunk(key);
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
        // Walk the tree lazily: values() would copy every chunk of the tier into a list first.
        for (io.vavr.Tuple2<Long, String> entry : recency) {
            String key = entry._2;
            TierChunk chunk = chunk(key);
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
        ordered.sort((a, b) -> Long.compare(chunk(a).touched(), chunk(b).touched()));
        return ordered;
    }

    /** Adds chunks whose write is in flight; they are not loadable until {@link #ready}. Held keys stay as they are. */
    public CpuTier writing(List<String> keys) {
        HashMap<String, TierChunk> newChunks = chunks;
        TreeMap<Long, String> newRecency = recency;
        long stamp = clock;
        for (String key : keys) {
            if (newChunks.containsKey(key)) {
                continue;
            }
            stamp++;
            newChunks = newChunks.put(key, new TierChunk(key, false, 0, stamp));
            newRecency = newRecency.put(stamp, key);
        }
        return new CpuTier(capacity, newChunks, newRecency, stamp);
    }

    /**
     * Makes the touched keys the most recently used, the first key most recent of all (a lower chunk
     * index is more recent than a higher one). Keys the tier does not hold are skipped.
     */
    public CpuTier touch(List<String> keysInChunkOrder) {
        if (keysInChunkOrder.isEmpty()) {
            return this;
        }
        HashMap<String, TierChunk> newChunks = chunks;
        TreeMap<Long, String> newRecency = recency;
        long stamp = clock;
        for (int i = keysInChunkOrder.size() - 1; i >= 0; i--) {
            TierChunk chunk = newChunks.getOrElse(keysInChunkOrder.get(i), null);
            if (chunk == null) {
                continue;
            }
            stamp++;
            newRecency = newRecency.remove(chunk.touched()).put(stamp, chunk.key());
            newChunks = newChunks.put(chunk.key(), chunk.withTouched(stamp));
        }
        return new CpuTier(capacity, newChunks, newRecency, stamp);
    }

    /**
     * {@code writing(written).touch(touched)} in one pass: the same chunks, stamps and order, but a chunk
     * both written and touched goes into the maps once, with its last stamp, instead of being put, taken
     * out and put again (a store writes the chunks it then touches).
     */
    public CpuTier writingThenTouching(List<String> written, List<String> touched) {
        java.util.HashMap<String, TierChunk> added = new java.util.HashMap<>();
        long stamp = clock;
        for (String key : written) {
            if (!chunks.containsKey(key) && !added.containsKey(key)) {
                stamp++;
                added.put(key, new TierChunk(key, false, 0, stamp));
            }
        }
        HashMap<String, TierChunk> newChunks = chunks;
        TreeMap<Long, String> newRecency = recency;
        for (int i = touched.size() - 1; i >= 0; i--) {
            String key = touched.get(i);
            TierChunk fresh = added.get(key);
            if (fresh != null) {
                stamp++;
                added.put(key, fresh.withTouched(stamp));
                continue;
            }
            TierChunk chunk = newChunks.getOrElse(key, null);
            if (chunk == null) {
                continue;
            }
            stamp++;
            newRecency = newRecency.remove(chunk.touched()).put(stamp, chunk.key());
            newChunks = newChunks.put(chunk.key(), chunk.withTouched(stamp));
        }
        for (String key : written) {
            TierChunk fresh = added.remove(key); // in the order written, as writing() puts them
            if (fresh != null) {
                newChunks = newChunks.put(key, fresh);
                newRecency = newRecency.put(fresh.touched(), key);
            }
        }
        return new CpuTier(capacity, newChunks, newRecency, stamp);
    }

    /** Chunks whose write completed become loadable; a ready chunk is not a touch. */
    public CpuTier ready(List<String> keys) {
        HashMap<String, TierChunk> newChunks = chunks;
        for (String key : keys) {
            TierChunk chunk = newChunks.getOrElse(key, null);
            if (chunk != null) {
                newChunks = newChunks.put(key, chunk.withReady());
            }
        }
        return new CpuTier(capacity, newChunks, recency, clock);
    }

    public CpuTier remove(Collection<String> keys) {
        HashMap<String, TierChunk> newChunks = chunks;
        TreeMap<Long, String> newRecency = recency;
        for (String key : keys) {
            TierChunk chunk = newChunks.getOrElse(key, null);
            if (chunk != null) {
                newChunks = newChunks.remove(key);
                newRecency = newRecency.remove(chunk.touched());
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
        return new CpuTier(capacity, HashMap.empty(), TreeMap.empty(), clock);
    }

    private CpuTier addPins(List<String> keys, int delta) {
        HashMap<String, TierChunk> newChunks = chunks;
        for (String key : keys) {
            TierChunk chunk = newChunks.getOrElse(key, null);
            if (chunk != null) {
                newChunks = newChunks.put(key, chunk.withPins(Math.max(0, chunk.pins() + delta)));
            }
        }
        return new CpuTier(capacity, newChunks, recency, clock);
    }
}
