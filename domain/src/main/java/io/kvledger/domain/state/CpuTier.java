package io.kvledger.domain.state;

import io.kvledger.containers.ObjectIntTable;
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
 * <p>The order is an intrusive doubly linked list over arrays, as vLLM's LRU policy keeps an ordered dict: each
 * chunk has a slot, and its slot's neighbours are the chunks touched just before and just after it. Every stamp
 * handed out is above every stamp held, so a new or touched chunk goes to the tail and the list stays in stamp
 * order without a sorted map: a touch is an unlink and a link, no allocation. Eviction walks from the head and
 * skips what may not go (being written, pinned, offered), as the policy's walk does; it stops once it has seen
 * every evictable chunk. {@link #evictable()} is that walk's evictable chunks by stamp, for views and snapshots.
 * {@link #clock()}: the last stamp handed out.
 */
public final class CpuTier {

    private static final int NONE = -1;
    private static final int MIN_SLOTS = 16;

    private final int capacity;
    private long clock;
    /** Key to slot of every chunk held. */
    private final ObjectIntTable<String> slots;
    /** Per slot: the chunk held there ({@code null} when free), whether it is evictable (so eviction's walk reads
     * no chunk it passes) and its neighbours in stamp order. */
    private TierChunk[] chunkAt;
    private boolean[] evictableAt;
    private int[] prev;
    /** Per slot: the next chunk in stamp order, or for a free slot the next free one. */
    private int[] next;
    /** The least and the most recently touched chunk's slots. */
    private int head = NONE;
    private int tail = NONE;
    /** The first free slot below {@link #used}, and the slots ever used. */
    private int free = NONE;
    private int used;
    /** The chunks that are ready and unpinned: eviction's walk stops when it has seen them all. */
    private int evictableCount;

    private CpuTier(int capacity, int slotCount) {
        this.capacity = capacity;
        this.slots = new ObjectIntTable<>();
        this.chunkAt = new TierChunk[slotCount];
        this.evictableAt = new boolean[slotCount];
        this.prev = new int[slotCount];
        this.next = new int[slotCount];
    }

    private CpuTier(CpuTier from) {
        capacity = from.capacity;
        clock = from.clock;
        slots = new ObjectIntTable<>(from.slots);
        chunkAt = from.chunkAt.clone();
        evictableAt = from.evictableAt.clone();
        prev = from.prev.clone();
        next = from.next.clone();
        head = from.head;
        tail = from.tail;
        free = from.free;
        used = from.used;
        evictableCount = from.evictableCount;
    }

    public static CpuTier empty(int capacity) {
        return new CpuTier(capacity, MIN_SLOTS);
    }

    /** The tier holding {@code chunks} (a snapshot's), its order taken from their stamps (a stamp's ties by key). */
    public static CpuTier of(int capacity, Iterable<TierChunk> chunks, long clock) {
        List<TierChunk> byStamp = new ArrayList<>();
        chunks.forEach(byStamp::add);
        byStamp.sort(Comparator.comparingLong(TierChunk::touched).thenComparing(TierChunk::key));
        CpuTier tier = new CpuTier(capacity, Math.max(MIN_SLOTS, byStamp.size()));
        for (TierChunk chunk : byStamp) {
            tier.set(chunk.key(), chunk);
        }
        tier.clock = clock;
        return tier;
    }

    /** A tier of its own with the same chunks, order and clock: a change of either leaves the other as it was. */
    public CpuTier copy() {
        return new CpuTier(this);
    }

    public int capacity() {
        return capacity;
    }

    /** The last stamp handed out. */
    public long clock() {
        return clock;
    }

    public int size() {
        return slots.size();
    }

    /** The chunks that may be evicted now: ready and unpinned. */
    public int evictableCount() {
        return evictableCount;
    }

    /** The slots ever taken since the tier was made or cleared: a removed chunk's slot is taken again first. */
    int slotsUsed() {
        return used;
    }

    public boolean holds(String key) {
        return slots.containsKey(key);
    }

    /** The chunk of {@code key}, or {@code null} when the tier does not hold it. */
    public TierChunk chunk(String key) {
        int slot = slots.get(key);
        return slot == ObjectIntTable.MISSING ? null : chunkAt[slot];
    }

    public boolean isReady(String key) {
        TierChunk chunk = chunk(key);
        return chunk != null && chunk.ready();
    }

    /** Every chunk held, least recently touched first (a copy). */
    public List<TierChunk> chunkList() {
        List<TierChunk> list = new ArrayList<>(slots.size());
        for (int slot = head; slot != NONE; slot = next[slot]) {
            list.add(chunkAt[slot]);
        }
        return list;
    }

    /** Every chunk by key, keys ascending (an unmodifiable copy, for views and tests; the fold reads {@link #chunk}). */
    public SortedMap<String, TierChunk> chunks() {
        SortedMap<String, TierChunk> byKey = new java.util.TreeMap<>();
        for (int slot = head; slot != NONE; slot = next[slot]) {
            byKey.put(chunkAt[slot].key(), chunkAt[slot]);
        }
        return Collections.unmodifiableSortedMap(byKey);
    }

    /** Touch stamp to key of the evictable chunks (ready, unpinned), least recent first (an unmodifiable copy). */
    public SortedMap<Long, String> evictable() {
        SortedMap<Long, String> order = new java.util.TreeMap<>();
        for (int slot = head; slot != NONE; slot = next[slot]) {
            TierChunk chunk = chunkAt[slot];
            if (chunk.evictable()) {
                order.put(chunk.touched(), chunk.key());
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
        int unseen = evictableCount;
        for (int slot = head; slot != NONE && victims.size() < count && unseen > 0; slot = next[slot]) {
            if (evictableAt[slot]) {
                unseen--;
                String key = chunkAt[slot].key();
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
            if (!slots.containsKey(key)) {
                set(key, new TierChunk(key, false, 0, ++clock)); // being written: not evictable
            }
        }
        for (int i = touched.size() - 1; i >= 0; i--) {
            int at = slots.get(touched.get(i));
            if (at != ObjectIntTable.MISSING) {
                chunkAt[at] = chunkAt[at].withTouched(++clock);
                if (at != tail) {
                    unlink(at);
                    linkAtTail(at);
                }
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
        slots.clear();
        java.util.Arrays.fill(chunkAt, 0, used, null);
        java.util.Arrays.fill(evictableAt, 0, used, false);
        head = NONE;
        tail = NONE;
        free = NONE;
        used = 0;
        evictableCount = 0;
        return this;
    }

    /** Each held chunk of {@code keys} changed (its stamp and place kept), becoming evictable or not. */
    private CpuTier changed(List<String> keys, UnaryOperator<TierChunk> change) {
        for (int i = 0; i < keys.size(); i++) {
            int slot = slots.get(keys.get(i));
            if (slot != ObjectIntTable.MISSING) {
                TierChunk held = chunkAt[slot];
                TierChunk chunk = change.apply(held);
                chunkAt[slot] = chunk;
                evictableAt[slot] = chunk.evictable();
                evictableCount += (chunk.evictable() ? 1 : 0) - (held.evictable() ? 1 : 0);
            }
        }
        return this;
    }

    /**
     * Puts {@code chunk} (or removes {@code key}'s chunk, for {@code null}). A new chunk goes to the tail: its
     * stamp is the highest held (a fresh one, or a snapshot's added in stamp order).
     */
    private void set(String key, TierChunk chunk) {
        int slot = chunk == null ? slots.remove(key) : slots.get(key);
        if (slot != ObjectIntTable.MISSING) {
            TierChunk held = chunkAt[slot];
            evictableCount -= held.evictable() ? 1 : 0;
            if (chunk != null) {
                chunkAt[slot] = chunk;
                evictableAt[slot] = chunk.evictable();
            } else {
                unlink(slot);
                chunkAt[slot] = null;
                evictableAt[slot] = false;
                next[slot] = free;
                free = slot;
            }
        } else if (chunk != null) {
            int at = freeSlot();
            slots.put(key, at);
            chunkAt[at] = chunk;
            evictableAt[at] = chunk.evictable();
            linkAtTail(at);
        }
        if (chunk != null) {
            evictableCount += chunk.evictable() ? 1 : 0;
        }
    }

    private int freeSlot() {
        if (free != NONE) {
            int slot = free;
            free = next[slot];
            return slot;
        }
        if (used == chunkAt.length) {
            int length = used * 2;
            chunkAt = java.util.Arrays.copyOf(chunkAt, length);
            evictableAt = java.util.Arrays.copyOf(evictableAt, length);
            prev = java.util.Arrays.copyOf(prev, length);
            next = java.util.Arrays.copyOf(next, length);
        }
        return used++;
    }

    private void unlink(int slot) {
        int before = prev[slot];
        int after = next[slot];
        if (before == NONE) {
            head = after;
        } else {
            next[before] = after;
        }
        if (after == NONE) {
            tail = before;
        } else {
            prev[after] = before;
        }
    }

    private void linkAtTail(int slot) {
        prev[slot] = tail;
        next[slot] = NONE;
        if (tail == NONE) {
            head = slot;
        } else {
            next[tail] = slot;
        }
        tail = slot;
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof CpuTier that) || capacity != that.capacity || clock != that.clock
                || slots.size() != that.slots.size()) {
            return false;
        }
        for (int slot = head; slot != NONE; slot = next[slot]) {
            if (!chunkAt[slot].equals(that.chunk(chunkAt[slot].key()))) {
                return false;
            }
        }
        return true;
    }

    /** The hash {@code Objects.hash(capacity, clock, chunks by key)} gives, the chunks summed as a map's entries. */
    @Override
    public int hashCode() {
        int chunks = 0;
        for (int slot = head; slot != NONE; slot = next[slot]) {
            chunks += chunkAt[slot].key().hashCode() ^ chunkAt[slot].hashCode();
        }
        return Objects.hash(capacity, clock, chunks);
    }

    /** The chunks by key ascending, the evictable order by stamp, in the form the state's maps print in. */
    @Override
    public String toString() {
        return "CpuTier[capacity=" + capacity + ", chunks=" + StateHashMap.ofEntries(chunks().entrySet())
                + ", evictable=" + StateTreeMap.ofEntries(evictable().entrySet()) + ", clock=" + clock + "]";
    }
}
