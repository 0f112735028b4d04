package io.kvledger.domain.state;

import io.kvledger.containers.RecencyMap;
import io.kvledger.containers.StateHashMap;
import io.kvledger.containers.StateTreeMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.UnaryOperator;

/**
 * The CPU tier: chunks by key, ready or being written, with least-recently-used order.
 * Capacity counts every chunk it holds, pinned and written ones included.
 *
 * <p>Changed in place by its one owner, the fold: no older version is kept, and what must look back re-folds
 * from a {@link #copy()}.
 *
 * <p>The order is every chunk's, by its last touch, as vLLM's LRU policy keeps an ordered dict: a {@link
 * RecencyMap} of the chunks, each marked when it is evictable (ready and unpinned). Every stamp handed out is above
 * every stamp held, so a new or touched chunk is the newest and the map stays in stamp order without a sorted map.
 * Eviction walks from the oldest and skips what may not go (being written, pinned, offered), as the policy's walk
 * does, and stops once it has seen every evictable chunk. {@link #evictable()} is that walk's evictable chunks by
 * stamp, for views and snapshots. {@link #clock()}: the last stamp handed out.
 */
public final class CpuTier {

    private final int capacity;
    private long clock;
    private final RecencyMap<String, TierChunk> chunks;

    private CpuTier(int capacity, long clock, RecencyMap<String, TierChunk> chunks) {
        this.capacity = capacity;
        this.clock = clock;
        this.chunks = chunks;
    }

    public static CpuTier empty(int capacity) {
        return new CpuTier(capacity, 0, new RecencyMap<>());
    }

    /** The tier holding {@code chunks} (a snapshot's), its order taken from their stamps (a stamp's ties by key). */
    public static CpuTier of(int capacity, Iterable<TierChunk> chunks, long clock) {
        List<TierChunk> byStamp = new ArrayList<>();
        chunks.forEach(byStamp::add);
        byStamp.sort(Comparator.comparingLong(TierChunk::touched).thenComparing(TierChunk::key));
        CpuTier tier = new CpuTier(capacity, clock, new RecencyMap<>(byStamp.size()));
        for (TierChunk chunk : byStamp) {
            tier.chunks.remove(chunk.key()); // a key given twice: the later one, as a map of them would keep
            tier.chunks.putNewestIfAbsent(chunk.key(), chunk, chunk.evictable());
        }
        return tier;
    }

    /** A tier of its own with the same chunks, order and clock: a change of either leaves the other as it was. */
    public CpuTier copy() {
        return new CpuTier(capacity, clock, new RecencyMap<>(chunks));
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

    /** The chunks that may be evicted now: ready and unpinned. */
    public int evictableCount() {
        return chunks.markedCount();
    }

    /** The slots ever taken since the tier was made or cleared: a removed chunk's slot is taken again first. */
    int slotsUsed() {
        return chunks.slotsUsed();
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

    /** Every chunk held, least recently touched first (a copy). */
    public List<TierChunk> chunkList() {
        List<TierChunk> list = new ArrayList<>(chunks.size());
        for (int at = chunks.oldest(); at != RecencyMap.END; at = chunks.newer(at)) {
            list.add(chunks.valueAt(at));
        }
        return list;
    }

    /** Every chunk by key, keys ascending (an unmodifiable copy, for views and tests; the fold reads {@link #chunk}). */
    public SortedMap<String, TierChunk> chunks() {
        SortedMap<String, TierChunk> byKey = new java.util.TreeMap<>();
        for (int at = chunks.oldest(); at != RecencyMap.END; at = chunks.newer(at)) {
            byKey.put(chunks.keyAt(at), chunks.valueAt(at));
        }
        return Collections.unmodifiableSortedMap(byKey);
    }

    /** Touch stamp to key of the evictable chunks (ready, unpinned), least recent first (an unmodifiable copy). */
    public SortedMap<Long, String> evictable() {
        SortedMap<Long, String> order = new java.util.TreeMap<>();
        for (int at = chunks.oldest(); at != RecencyMap.END; at = chunks.newer(at)) {
            if (chunks.markedAt(at)) {
                order.put(chunks.valueAt(at).touched(), chunks.keyAt(at));
            }
        }
        return Collections.unmodifiableSortedMap(order);
    }

    /**
     * Up to {@code count} evictable chunks, least recently used first, leaving out {@code protectedKeys}.
     * Fewer when the tier has fewer.
     */
    public List<String> evictionCandidates(int count, Set<String> protectedKeys) {
        List<String> victims = new ArrayList<>(Math.max(count, 0));
        int unseen = chunks.markedCount();
        for (int at = chunks.oldest(); at != RecencyMap.END && victims.size() < count && unseen > 0; at = chunks.newer(at)) {
            if (chunks.markedAt(at)) {
                unseen--;
                String key = chunks.keyAt(at);
                if (!protectedKeys.contains(key)) {
                    victims.add(key);
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
        for (int i = 0; i < written.size(); i++) {
            String key = written.get(i);
            if (!chunks.containsKey(key)) { // a held key takes no stamp
                chunks.putNewestIfAbsent(key, new TierChunk(key, false, 0, ++clock), false); // being written: not evictable
            }
        }
        for (int i = touched.size() - 1; i >= 0; i--) {
            int at = chunks.find(touched.get(i));
            if (at != RecencyMap.END) {
                chunks.touchAt(at, chunks.valueAt(at).withTouched(++clock));
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
            chunks.remove(key);
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
        return this;
    }

    /** Each held chunk of {@code keys} changed (its stamp and place kept), becoming evictable or not. */
    private CpuTier changed(List<String> keys, UnaryOperator<TierChunk> change) {
        for (int i = 0; i < keys.size(); i++) {
            int at = chunks.find(keys.get(i));
            if (at != RecencyMap.END) {
                TierChunk chunk = change.apply(chunks.valueAt(at));
                chunks.replaceAt(at, chunk, chunk.evictable());
            }
        }
        return this;
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof CpuTier that) || capacity != that.capacity || clock != that.clock
                || chunks.size() != that.chunks.size()) {
            return false;
        }
        for (int at = chunks.oldest(); at != RecencyMap.END; at = chunks.newer(at)) {
            if (!chunks.valueAt(at).equals(that.chunk(chunks.keyAt(at)))) {
                return false;
            }
        }
        return true;
    }

    /** The hash {@code Objects.hash(capacity, clock, chunks by key)} gives, the chunks summed as a map's entries. */
    @Override
    public int hashCode() {
        int sum = 0;
        for (int at = chunks.oldest(); at != RecencyMap.END; at = chunks.newer(at)) {
            sum += chunks.keyAt(at).hashCode() ^ chunks.valueAt(at).hashCode();
        }
        return Objects.hash(capacity, clock, sum);
    }

    /** The chunks by key ascending, the evictable order by stamp, in the form the state's maps print in. */
    @Override
    public String toString() {
        return "CpuTier[capacity=" + capacity + ", chunks=" + StateHashMap.ofEntries(chunks().entrySet())
                + ", evictable=" + StateTreeMap.ofEntries(evictable().entrySet()) + ", clock=" + clock + "]";
    }
}
