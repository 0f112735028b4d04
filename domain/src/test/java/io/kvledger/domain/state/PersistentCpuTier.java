package io.kvledger.domain.state;

import io.vavr.collection.HashMap;
import io.vavr.collection.TreeMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The CPU tier as it was before it changed in place: Vavr's persistent maps, a new tier per change. Kept in
 * the tests as the reference {@link CpuTier} is held to ({@code CpuTierAgainstPersistentTest}).
 *
 * <p>The CPU tier: chunks by key, ready or being written, with least-recently-used order.
 * Capacity counts every chunk it holds, pinned and written ones included.
 *
 * @param evictable touch stamp to key of the chunks that may be evicted (ready and unpinned), least recent
 *                  first: eviction walks only these, so it costs the victims it takes and the offer's keys it
 *                  skips, not every chunk being written or pinned ahead of them (a chunk's own stamp is in
 *                  {@link TierChunk#touched()})
 * @param clock     the last stamp handed out
 */
record PersistentCpuTier(int capacity, HashMap<String, TierChunk> chunks, TreeMap<Long, String> evictable, long clock) {

    public static PersistentCpuTier empty(int capacity) {
        return new PersistentCpuTier(capacity, HashMap.empty(), TreeMap.empty(), 0);
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
        // Walk the tree lazily: values() would copy every evictable chunk into a list first.
        for (io.vavr.Tuple2<Long, String> entry : evictable) {
            if (!protectedKeys.contains(entry._2)) {
                victims.add(entry._2);
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
    public PersistentCpuTier writing(List<String> keys) {
        return writingThenTouching(keys, List.of());
    }

    /**
     * Makes the touched keys the most recently used, the first key most recent of all (a lower chunk
     * index is more recent than a higher one). Keys the tier does not hold are skipped.
     */
    public PersistentCpuTier touch(List<String> keysInChunkOrder) {
        if (keysInChunkOrder.isEmpty()) {
            return this;
        }
        return writingThenTouching(List.of(), keysInChunkOrder);
    }

    /**
     * {@code writing(written).touch(touched)} in one pass: the same chunks, stamps and order, but a chunk
     * both written and touched goes into the maps once, with its last stamp, instead of being put, taken
     * out and put again (a store writes the chunks it then touches).
     */
    public PersistentCpuTier writingThenTouching(List<String> written, List<String> touched) {
        java.util.HashMap<String, TierChunk> added = written.isEmpty() ? null : new java.util.HashMap<>();
        long stamp = clock;
        for (String key : written) {
            if (!chunks.containsKey(key) && !added.containsKey(key)) {
                stamp++;
                added.put(key, new TierChunk(key, false, 0, stamp));
            }
        }
        HashMap<String, TierChunk> newChunks = chunks;
        TreeMap<Long, String> newEvictable = evictable;
        for (int i = touched.size() - 1; i >= 0; i--) {
            String key = touched.get(i);
            TierChunk fresh = added == null ? null : added.get(key);
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
            if (chunk.evictable()) {
                newEvictable = newEvictable.remove(chunk.touched()).put(stamp, key);
            }
            newChunks = newChunks.put(key, chunk.withTouched(stamp));
        }
        for (String key : written) {
            TierChunk fresh = added.remove(key); // in the order written, as writing() puts them; being written, not evictable
            if (fresh != null) {
                newChunks = newChunks.put(key, fresh);
            }
        }
        return new PersistentCpuTier(capacity, newChunks, newEvictable, stamp);
    }

    /** Chunks whose write completed become loadable; a ready chunk is not a touch. */
    public PersistentCpuTier ready(List<String> keys) {
        return changed(keys, TierChunk::withReady);
    }

    public PersistentCpuTier remove(Collection<String> keys) {
        HashMap<String, TierChunk> newChunks = chunks;
        TreeMap<Long, String> newEvictable = evictable;
        for (String key : keys) {
            TierChunk chunk = newChunks.getOrElse(key, null);
            if (chunk != null) {
                newChunks = newChunks.remove(key);
                if (chunk.evictable()) {
                    newEvictable = newEvictable.remove(chunk.touched());
                }
            }
        }
        return new PersistentCpuTier(capacity, newChunks, newEvictable, clock);
    }

    public PersistentCpuTier pin(List<String> keys) {
        return changed(keys, chunk -> chunk.withPins(chunk.pins() + 1));
    }

    public PersistentCpuTier unpin(List<String> keys) {
        return changed(keys, chunk -> chunk.withPins(Math.max(0, chunk.pins() - 1)));
    }

    public PersistentCpuTier cleared() {
        return new PersistentCpuTier(capacity, HashMap.empty(), TreeMap.empty(), clock);
    }

    /** Each held chunk of {@code keys} changed in place (its stamp kept), entering or leaving the evictable order. */
    private PersistentCpuTier changed(Collection<String> keys, UnaryOperator<TierChunk> change) {
        HashMap<String, TierChunk> newChunks = chunks;
        TreeMap<Long, String> newEvictable = evictable;
        for (String key : keys) {
            TierChunk chunk = newChunks.getOrElse(key, null);
            if (chunk == null) {
                continue;
            }
            TierChunk next = change.apply(chunk);
            newChunks = newChunks.put(key, next);
            if (chunk.evictable() && !next.evictable()) {
                newEvictable = newEvictable.remove(chunk.touched());
            } else if (!chunk.evictable() && next.evictable()) {
                newEvictable = newEvictable.put(chunk.touched(), key);
            }
        }
        return new PersistentCpuTier(capacity, newChunks, newEvictable, clock);
    }
}
