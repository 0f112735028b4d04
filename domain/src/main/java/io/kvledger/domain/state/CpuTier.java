package io.kvledger.domain.state;

import io.vavr.collection.HashMap;
import io.vavr.collection.TreeMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The CPU tier: chunks by key, ready or being written, with least-recently-used order.
 * Capacity counts every chunk it holds, pinned and written ones included.
 *
 * <p>A value, as every part of the state: a change gives a new tier and leaves this one as it was. Yet the
 * newest tier of a line of changes owns plain mutable maps ({@link TierTable}) and a change updates them in
 * place, so the fold pays a hash-map update per chunk rather than a persistent map's path copy; the tier it
 * changed keeps only the chunks the change replaced ({@link TierUndo}) and a link to the newer tier, and
 * reads through them. An older tier that is read far from the newest, iterated or changed again (a second
 * branch: the audit when a log departs from the rules, time travel) first takes a copy of its own. Every
 * method takes the line's lock, so a tier may be read on another thread than the one that changes the line.
 *
 * <p>{@link #evictable()}: touch stamp to key of the chunks that may be evicted (ready and unpinned), least
 * recent first: eviction walks only these, so it costs the victims it takes and the offer's keys it skips,
 * not every chunk being written or pinned ahead of them (a chunk's own stamp is in {@link TierChunk#touched()}).
 * {@link #clock()}: the last stamp handed out.
 */
public final class CpuTier {

    /** Beyond this many newer versions, an old tier's reads take a copy rather than walk again. */
    private static final int MAX_HOPS = 32;
    /** The newest tier copies its maps after this many changes in place, so an old tier keeps little alive. */
    private static final int COPY_EVERY = 4096;

    private final Object lock;
    private final int capacity;
    private final long clock;
    private final int size;
    /** The maps, while this is the newest tier of its line (or has a copy of its own); else {@code null}. */
    private TierTable table;
    /** When {@link #table} is {@code null}: the chunks the change to {@link #newer} replaced, and that tier. */
    private TierUndo undo;
    private CpuTier newer;

    private CpuTier(Object lock, int capacity, long clock, TierTable table) {
        this.lock = lock;
        this.capacity = capacity;
        this.clock = clock;
        this.size = table.chunks.size();
        this.table = table;
    }

    public static CpuTier empty(int capacity) {
        return new CpuTier(new Object(), capacity, 0, new TierTable());
    }

    /** The tier holding {@code chunks} (a snapshot's), its evictable order taken from their stamps. */
    public static CpuTier of(int capacity, Iterable<TierChunk> chunks, long clock) {
        TierTable table = new TierTable();
        for (TierChunk chunk : chunks) {
            table.set(chunk.key(), chunk);
        }
        return new CpuTier(new Object(), capacity, clock, table);
    }

    public int capacity() {
        return capacity;
    }

    /** The last stamp handed out. */
    public long clock() {
        return clock;
    }

    public int size() {
        return size;
    }

    public boolean holds(String key) {
        return chunk(key) != null;
    }

    /** The chunk of {@code key}, or {@code null} when the tier does not hold it. */
    public TierChunk chunk(String key) {
        synchronized (lock) {
            return lookup(key);
        }
    }

    public boolean isReady(String key) {
        TierChunk chunk = chunk(key);
        return chunk != null && chunk.ready();
    }

    /** Every chunk held, in no particular order (a copy). */
    public List<TierChunk> chunkList() {
        synchronized (lock) {
            return new ArrayList<>(contents().values());
        }
    }

    /** Every chunk by key (a persistent copy, for views and snapshots; the fold reads {@link #chunk}). */
    public HashMap<String, TierChunk> chunks() {
        synchronized (lock) {
            return HashMap.ofAll(contents());
        }
    }

    /** Touch stamp to key of the evictable chunks, least recent first (a persistent copy). */
    public TreeMap<Long, String> evictable() {
        synchronized (lock) {
            return TreeMap.ofAll(evictableOrder());
        }
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
        synchronized (lock) {
            java.util.HashMap<String, TierChunk> overlay = new java.util.HashMap<>();
            TierTable newest = table != null || hops() > MAX_HOPS ? ownTable() : walk(overlay);
            // Near the newest (the audit decides on the state before the event it just folded): the newest
            // order without the chunks this tier holds otherwise, merged with those, by stamp.
            List<TierChunk> instead = new ArrayList<>();
            for (TierChunk chunk : overlay.values()) {
                if (chunk != TierUndo.ABSENT && chunk.evictable()) {
                    instead.add(chunk);
                }
            }
            instead.sort((a, b) -> Long.compare(a.touched(), b.touched()));
            java.util.Iterator<Map.Entry<Long, String>> order = newest.evictable.entrySet().iterator();
            Map.Entry<Long, String> next = nextNotIn(order, overlay);
            int i = 0;
            while (victims.size() < count && (next != null || i < instead.size())) {
                String key;
                if (next != null && (i == instead.size() || next.getKey() < instead.get(i).touched())) {
                    key = next.getValue();
                    next = nextNotIn(order, overlay);
                } else {
                    key = instead.get(i++).key();
                }
                if (!protectedKeys.contains(key)) {
                    victims.add(key);
                }
            }
        }
        return victims;
    }

    private static Map.Entry<Long, String> nextNotIn(java.util.Iterator<Map.Entry<Long, String>> order,
                                                     Map<String, TierChunk> overlay) {
        while (order.hasNext()) {
            Map.Entry<Long, String> entry = order.next();
            if (!overlay.containsKey(entry.getValue())) {
                return entry;
            }
        }
        return null;
    }

    /** How many newer tiers lie between this one and the newest maps of its line. */
    private int hops() {
        int hops = 0;
        for (CpuTier version = this; version.table == null; version = version.newer) {
            hops++;
        }
        return hops;
    }

    /** The given keys ordered least recently used first. */
    public List<String> leastRecentFirst(Collection<String> keys) {
        List<String> ordered = new ArrayList<>(keys);
        synchronized (lock) {
            ordered.sort((a, b) -> Long.compare(lookup(a).touched(), lookup(b).touched()));
        }
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
        if (keysInChunkOrder.isEmpty()) {
            return this;
        }
        return writingThenTouching(List.of(), keysInChunkOrder);
    }

    /**
     * {@code writing(written).touch(touched)} in one pass: the same chunks, stamps and order (a store writes
     * the chunks it then touches).
     */
    public CpuTier writingThenTouching(List<String> written, List<String> touched) {
        return change((table, undo, stamp) -> {
            for (String key : written) {
                if (!table.chunks.containsKey(key)) {
                    stamp++;
                    undo.saw(key, null);
                    table.set(key, new TierChunk(key, false, 0, stamp)); // being written: not evictable
                }
            }
            for (int i = touched.size() - 1; i >= 0; i--) {
                String key = touched.get(i);
                TierChunk chunk = table.chunks.get(key);
                if (chunk != null) {
                    stamp++;
                    undo.saw(key, chunk);
                    table.set(key, chunk.withTouched(stamp));
                }
            }
            return stamp;
        });
    }

    /** Chunks whose write completed become loadable; a ready chunk is not a touch. */
    public CpuTier ready(List<String> keys) {
        return changed(keys, TierChunk::withReady);
    }

    public CpuTier remove(Collection<String> keys) {
        return change((table, undo, stamp) -> {
            for (String key : keys) {
                TierChunk chunk = table.chunks.get(key);
                if (chunk != null) {
                    undo.saw(key, chunk);
                    table.set(key, null);
                }
            }
            return stamp;
        });
    }

    public CpuTier pin(List<String> keys) {
        return changed(keys, chunk -> chunk.withPins(chunk.pins() + 1));
    }

    public CpuTier unpin(List<String> keys) {
        return changed(keys, chunk -> chunk.withPins(Math.max(0, chunk.pins() - 1)));
    }

    public CpuTier cleared() {
        return new CpuTier(new Object(), capacity, clock, new TierTable());
    }

    /** Each held chunk of {@code keys} changed in place (its stamp kept), entering or leaving the evictable order. */
    private CpuTier changed(Collection<String> keys, UnaryOperator<TierChunk> change) {
        return change((table, undo, stamp) -> {
            for (String key : keys) {
                TierChunk chunk = table.chunks.get(key);
                if (chunk != null) {
                    undo.saw(key, chunk);
                    table.set(key, change.apply(chunk));
                }
            }
            return stamp;
        });
    }

    /** One change of the maps, remembering what it replaced; gives the new clock. */
    private interface Change {
        long apply(TierTable table, TierUndo undo, long clock);
    }

    private CpuTier change(Change change) {
        synchronized (lock) {
            TierTable own = ownTable();
            boolean split = own.changesSinceCopy >= COPY_EVERY;
            TierTable target = split ? own.copy() : own;
            TierUndo replaced = new TierUndo();
            long newClock = change.apply(target, replaced, clock);
            if (replaced.isEmpty() && newClock == clock) {
                return this;
            }
            if (split) {
                // A new line: this tier keeps the maps as they were, so nothing older reaches the copy.
                return new CpuTier(new Object(), capacity, newClock, target);
            }
            own.changesSinceCopy++;
            CpuTier next = new CpuTier(lock, capacity, newClock, own);
            table = null;
            undo = replaced;
            newer = next;
            return next;
        }
    }

    /** This tier's chunk of {@code key}: the nearest newer undo that names it, else the newest maps. */
    private TierChunk lookup(String key) {
        CpuTier version = this;
        int hops = 0;
        while (version.table == null) {
            TierChunk before = version.undo.get(key);
            if (before != null) {
                return before == TierUndo.ABSENT ? null : before;
            }
            version = version.newer;
            hops++;
        }
        TierChunk found = version.table.chunks.get(key);
        if (hops > MAX_HOPS) {
            ownTable(); // read far from the newest again and again: cheaper with a copy of its own
        }
        return found;
    }

    /** The maps of this tier, a copy of its own taken first when it is not the newest of its line. */
    private TierTable ownTable() {
        if (table == null) {
            java.util.HashMap<String, TierChunk> overlay = new java.util.HashMap<>();
            TierTable newest = walk(overlay);
            TierTable copy = newest.copy();
            copy.setAll(overlay);
            table = copy;
            undo = null;
            newer = null;
        }
        return table;
    }

    /** The newest maps of the line, filling {@code overlay} with what this tier holds instead, key by key. */
    private TierTable walk(Map<String, TierChunk> overlay) {
        CpuTier version = this;
        while (version.table == null) {
            version.undo.forEach(overlay::putIfAbsent);
            version = version.newer;
        }
        return version.table;
    }

    /** Every chunk by key as this tier holds them. */
    private Map<String, TierChunk> contents() {
        return ownTable().chunks;
    }

    private java.util.TreeMap<Long, String> evictableOrder() {
        return ownTable().evictable;
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof CpuTier that) || capacity != that.capacity || clock != that.clock || size != that.size) {
            return false;
        }
        Map<String, TierChunk> mine;
        synchronized (lock) {
            mine = new java.util.HashMap<>(contents());
        }
        synchronized (that.lock) {
            return mine.equals(that.contents());
        }
    }

    @Override
    public int hashCode() {
        synchronized (lock) {
            return Objects.hash(capacity, clock, contents());
        }
    }

    @Override
    public String toString() {
        return "CpuTier[capacity=" + capacity + ", chunks=" + chunks() + ", evictable=" + evictable() + ", clock=" + clock + "]";
    }
}
