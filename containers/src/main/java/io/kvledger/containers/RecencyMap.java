package io.kvledger.containers;

import java.util.Arrays;
import java.util.Objects;

/**
 * Keys to values in recency order, oldest first, some of them marked: an intrusive doubly linked list over slot
 * arrays, as an LRU cache keeps an ordered dict. Each entry has a slot (found through an {@link ObjectIntTable});
 * its slot's neighbours are the entries made newest just before and just after it. Putting a new key or {@link
 * #touchAt touching} one makes it the newest (an unlink and a link, no allocation); {@link #replaceAt} keeps its
 * place. A cursor is an entry's slot: valid until that entry is removed.
 * The mark is one bit per entry with a count of the marked ones, so a walk for marked entries ({@link #oldest},
 * {@link #newer}, {@link #markedAt}) reads no value it passes and can stop once it has seen them all. A removed
 * entry's slot is taken again first, so the arrays grow only with the most entries held at once.
 *
 * <p>One owner thread, as the state it serves; {@link #RecencyMap(RecencyMap) a copy} shares nothing with its
 * original. Keys and values are never {@code null}.
 */
public final class RecencyMap<K, V> {

    /** The cursor past the newest entry (and before the oldest): the end of a walk. */
    public static final int END = -1;

    private static final int MIN_SLOTS = 16;

    private final ObjectIntTable<K> slots;
    /** Per slot: the key and value held there ({@code null} when free), its mark and its neighbours. */
    private Object[] keyAt;
    private Object[] valueAt;
    private boolean[] markedAt;
    private int[] older;
    /** Per slot: the next newer entry's slot, or for a free slot the next free one. */
    private int[] newer;
    private int oldest = END;
    private int newest = END;
    /** The first free slot below {@link #used}, and the slots ever taken since the map was made or cleared. */
    private int free = END;
    private int used;
    private int marked;

    public RecencyMap() {
        this(MIN_SLOTS);
    }

    /** An empty map whose arrays hold {@code expected} entries before they grow. */
    public RecencyMap(int expected) {
        int length = Math.max(MIN_SLOTS, expected);
        slots = new ObjectIntTable<>();
        keyAt = new Object[length];
        valueAt = new Object[length];
        markedAt = new boolean[length];
        older = new int[length];
        newer = new int[length];
    }

    /** A map of its own with {@code from}'s entries, order and marks. */
    public RecencyMap(RecencyMap<K, V> from) {
        slots = new ObjectIntTable<>(from.slots);
        keyAt = from.keyAt.clone();
        valueAt = from.valueAt.clone();
        markedAt = from.markedAt.clone();
        older = from.older.clone();
        newer = from.newer.clone();
        oldest = from.oldest;
        newest = from.newest;
        free = from.free;
        used = from.used;
        marked = from.marked;
    }

    public int size() {
        return slots.size();
    }

    /** How many entries are marked. */
    public int markedCount() {
        return marked;
    }

    /** The slots ever taken since the map was made or cleared (at most the most entries it held at once). */
    public int slotsUsed() {
        return used;
    }

    public boolean containsKey(Object key) {
        return slots.containsKey(key);
    }

    /** {@code key}'s value, or {@code null}. */
    @SuppressWarnings("unchecked")
    public V get(Object key) {
        int slot = slots.get(key);
        return slot == ObjectIntTable.MISSING ? null : (V) valueAt[slot];
    }

    /** Puts {@code key} as the newest entry, unless the map holds it: then nothing changes and this is false. */
    public boolean putNewestIfAbsent(K key, V value, boolean mark) {
        Objects.requireNonNull(value, "no null values");
        if (slots.containsKey(key)) {
            return false;
        }
        int slot = takeSlot();
        slots.put(key, slot);
        keyAt[slot] = key;
        valueAt[slot] = value;
        markedAt[slot] = mark;
        marked += mark ? 1 : 0;
        linkNewest(slot);
        return true;
    }

    /** The cursor of {@code key}'s entry, or {@link #END} when the map does not hold it. */
    public int find(Object key) {
        int slot = slots.get(key);
        return slot == ObjectIntTable.MISSING ? END : slot;
    }

    /** Replaces the value and mark of the entry at {@code cursor} where it is. */
    public void replaceAt(int cursor, V value, boolean mark) {
        valueAt[cursor] = Objects.requireNonNull(value, "no null values");
        marked += (mark ? 1 : 0) - (markedAt[cursor] ? 1 : 0);
        markedAt[cursor] = mark;
    }

    /** Replaces the value of the entry at {@code cursor} (its mark kept) and makes it the newest. */
    public void touchAt(int cursor, V value) {
        valueAt[cursor] = Objects.requireNonNull(value, "no null values");
        if (cursor != newest) {
            unlink(cursor);
            linkNewest(cursor);
        }
    }

    /** Removes {@code key}; returns its value, or {@code null} when it was not held. */
    @SuppressWarnings("unchecked")
    public V remove(Object key) {
        int slot = slots.remove(key);
        if (slot == ObjectIntTable.MISSING) {
            return null;
        }
        V value = (V) valueAt[slot];
        unlink(slot);
        marked -= markedAt[slot] ? 1 : 0;
        keyAt[slot] = null;
        valueAt[slot] = null;
        markedAt[slot] = false;
        newer[slot] = free;
        free = slot;
        return value;
    }

    public void clear() {
        slots.clear();
        Arrays.fill(keyAt, 0, used, null);
        Arrays.fill(valueAt, 0, used, null);
        Arrays.fill(markedAt, 0, used, false);
        oldest = END;
        newest = END;
        free = END;
        used = 0;
        marked = 0;
    }

    /** The oldest entry's cursor, or {@link #END}. */
    public int oldest() {
        return oldest;
    }

    /** The cursor of the entry just newer than {@code cursor}'s, or {@link #END}. */
    public int newer(int cursor) {
        return newer[cursor];
    }

    @SuppressWarnings("unchecked")
    public K keyAt(int cursor) {
        return (K) keyAt[cursor];
    }

    @SuppressWarnings("unchecked")
    public V valueAt(int cursor) {
        return (V) valueAt[cursor];
    }

    public boolean markedAt(int cursor) {
        return markedAt[cursor];
    }

    private int takeSlot() {
        if (free != END) {
            int slot = free;
            free = newer[slot];
            return slot;
        }
        if (used == keyAt.length) {
            int length = used * 2;
            keyAt = Arrays.copyOf(keyAt, length);
            valueAt = Arrays.copyOf(valueAt, length);
            markedAt = Arrays.copyOf(markedAt, length);
            older = Arrays.copyOf(older, length);
            newer = Arrays.copyOf(newer, length);
        }
        return used++;
    }

    private void unlink(int slot) {
        int before = older[slot];
        int after = newer[slot];
        if (before == END) {
            oldest = after;
        } else {
            newer[before] = after;
        }
        if (after == END) {
            newest = before;
        } else {
            older[after] = before;
        }
    }

    private void linkNewest(int slot) {
        older[slot] = newest;
        newer[slot] = END;
        if (newest == END) {
            oldest = slot;
        } else {
            newer[newest] = slot;
        }
        newest = slot;
    }
}
