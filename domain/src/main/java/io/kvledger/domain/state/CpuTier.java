package io.kvledger.domain.state;

import io.kvledger.containers.StateHashMap;
import io.kvledger.containers.StateTreeMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.UnaryOperator;

/**
 * The CPU tier: chunks by key, ready or being written, with least-recently-used order.
 * Capacity counts every chunk it holds, pinned and written ones included.
 *
 * <p>Changed in place by its one owner, the fold: every change updates this tier's maps and returns this very
 * tier, so the fold pays a hash-map update per chunk. No older version is kept: what must look back re-folds
 * from a {@link #copy()}.
 *
 * <p>{@link #evictable()}: touch stamp to key of the chunks that may be evicted (ready and unpinned), least
 * recent first: eviction walks only these, so it costs the victims it takes and the offer's keys it skips,
 * not every chunk being written or pinned ahead of them (a chunk's own stamp is in {@link TierChunk#touched()}).
 * {@link #clock()}: the last stamp handed out.
 */
public final class CpuTier {

    private final int capacity;
    private long clock;
    private final java.util.HashMap<String, TierChunk> chunks;
    /** Touch stamp to key of the evictable chunks (ready and unpinned), least recent first. */
    private final java.util.TreeMap<Long, String> evictable;

    private CpuTier(int capacity, long clock, java.util.HashMap<String, TierChunk> chunks,
                    java.util.TreeMap<Long, String> evictable) {
        this.capacity = capacity;
        this.clock = clock;
        this.chunks = chunks;
        this.evictable = evictable;
    }

    public static CpuTier empty(int capacity) {
        return new CpuTier(capacity, 0, new java.util.HashMap<>(), new java.util.TreeMap<>());
    }

    /** The tier holding {@code chunks} (a snapshot's), its evictable order taken from their stamps. */
    public static CpuTier of(int capacity, Iterable<TierChunk> chunks, long clock) {
        CpuTier tier = empty(capacity);
        for (TierChunk chunk : chunks) {
            tier.set(chunk.key(), chunk);
        }
        tier.clock = clock;
        return tier;
    }

    /** A tier of its own with the same chunks, order and clock: a change of either leaves the other as it was. */
    public CpuTier copy() {
        return new CpuTier(capacity, clock, new java.util.HashMap<>(chunks), new java.util.TreeMap<>(evictable));
    }

    public int capacity() {
        return capacity;
    }

    /** The last stamp handed out. */
    public long clock() {
        return clock;
    }

    public int size() {
        return chunks.size();
    }

    public boolean holds(String key) {
        return chunks.containsKey(key);
    }

    /** The chunk of {@code key}, or {@code null} when the tier does not hold it. */
    public TierChunk chunk(String key) {
        return chunks.get(key);
    }

    public boolean isReady(String key) {
        TierChunk chunk = chunk(key);
        return chunk != null && chunk.ready();
    }

    /** Every chunk held, in no particular order (a copy). */
    public List<TierChunk> chunkList() {
        return new ArrayList<>(chunks.values());
    }

    /** Every chunk by key, keys ascending (an unmodifiable copy, for views and tests; the fold reads {@link #chunk}). */
    public SortedMap<String, TierChunk> chunks() {
        return Collections.unmodifiableSortedMap(new java.util.TreeMap<>(chunks));
    }

    /** Touch stamp to key of the evictable chunks, least recent first (an unmodifiable copy). */
    public SortedMap<Long, String> evictable() {
        return Collections.unmodifiableSortedMap(new java.util.TreeMap<>(evictable));
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
        for (String key : evictable.values()) {
            if (!protectedKeys.contains(key)) {
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
        return writingThenTouching(keys, List.of());
    }

    /**
     * Makes the touched keys the most recently used, the first key most recent of all (a lower chunk
     * index is more recent than a higher one). Keys the tier does not hold are skipped.
     */
    public CpuTier touch(List<String> keysInChunkOrder) {
        return writingThenTouching(List.of(), keysInChunkOrder);
    }

    /**
     * {@code writing(written).touch(touched)} in one pass: the same chunks, stamps and order (a store writes
     * the chunks it then touches).
     */
    public CpuTier writingThenTouching(List<String> written, List<String> touched) {
        for (String key : written) {
            if (!chunks.containsKey(key)) {
                set(key, new TierChunk(key, false, 0, ++clock)); // being written: not evictable
            }
        }
        for (int i = touched.size() - 1; i >= 0; i--) {
            String key = touched.get(i);
            TierChunk chunk = chunks.get(key);
            if (chunk != null) {
                set(key, chunk.withTouched(++clock));
            }
        }
        return this;
    }

    /** Chunks whose write completed become loadable; a ready chunk is not a touch. */
    public CpuTier ready(List<String> keys) {
        return changed(keys, TierChunk::withReady);
    }

    public CpuTier remove(Collection<String> keys) {
        for (String key : keys) {
            set(key, null);
        }
        return this;
    }

    public CpuTier pin(List<String> keys) {
        return changed(keys, chunk -> chunk.withPins(chunk.pins() + 1));
    }

    public CpuTier unpin(List<String> keys) {
        return changed(keys, chunk -> chunk.withPins(Math.max(0, chunk.pins() - 1)));
    }

    /** Holds nothing any more; the clock goes on. */
    public CpuTier cleared() {
        chunks.clear();
        evictable.clear();
        return this;
    }

    /** Each held chunk of {@code keys} changed (its stamp kept), entering or leaving the evictable order. */
    private CpuTier changed(Collection<String> keys, UnaryOperator<TierChunk> change) {
        for (String key : keys) {
            TierChunk chunk = chunks.get(key);
            if (chunk != null) {
                set(key, change.apply(chunk));
            }
        }
        return this;
    }

    /** Puts {@code chunk} (or removes {@code key}'s chunk, for {@code null}), keeping the evictable order. */
    private void set(String key, TierChunk chunk) {
        TierChunk held = chunk == null ? chunks.remove(key) : chunks.put(key, chunk);
        if (held != null && held.evictable()) {
            evictable.remove(held.touched());
        }
        if (chunk != null && chunk.evictable()) {
            evictable.put(chunk.touched(), key);
        }
    }

    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof CpuTier that && capacity == that.capacity && clock == that.clock
                && chunks.equals(that.chunks);
    }

    @Override
    public int hashCode() {
        return Objects.hash(capacity, clock, chunks);
    }

    /** The chunks by key ascending, the evictable order by stamp, in the form the state's maps print in. */
    @Override
    public String toString() {
        return "CpuTier[capacity=" + capacity + ", chunks=" + StateHashMap.ofEntries(chunks.entrySet())
                + ", evictable=" + StateTreeMap.ofEntries(evictable.entrySet()) + ", clock=" + clock + "]";
    }
}
