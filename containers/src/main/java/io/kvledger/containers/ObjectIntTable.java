package io.kvledger.containers;

import java.util.Arrays;
import java.util.Objects;

/**
 * Keys to {@code int}s without boxing: {@link OpenHashTable}'s linear probing over a key array and an {@code
 * int} array, for an index from a key to a slot of other arrays (the CPU tier's chunks). A look-up reads the
 * key's slot and its number, no entry or {@code Integer} to follow. Keys are never {@code null}; a missing key
 * reads as {@link #MISSING}. One owner thread, as the state it serves.
 */
public final class ObjectIntTable<K> {

    /** What {@link #get} and {@link #remove} give for a key the table does not hold. */
    public static final int MISSING = -1;

    private static final int MIN_CAPACITY = 16;

    private Object[] keys;
    private int[] values;
    private int size;

    public ObjectIntTable() {
        keys = new Object[MIN_CAPACITY];
        values = new int[MIN_CAPACITY];
    }

    /** A table of its own holding {@code from}'s entries. */
    public ObjectIntTable(ObjectIntTable<K> from) {
        keys = from.keys.clone();
        values = from.values.clone();
        size = from.size;
    }

    public int size() {
        return size;
    }

    public boolean containsKey(Object key) {
        return key != null && find(key) >= 0;
    }

    /** {@code key}'s number, or {@link #MISSING}. */
    public int get(Object key) {
        if (key == null) {
            return MISSING;
        }
        int slot = find(key);
        return slot >= 0 ? values[slot] : MISSING;
    }

    /** Sets {@code key}'s number; {@code value} must not be {@link #MISSING}'s. Returns the number it had, or MISSING. */
    public int put(K key, int value) {
        Objects.requireNonNull(key, "no null keys");
        if (value == MISSING) {
            throw new IllegalArgumentException("the number " + MISSING + " reads as missing");
        }
        int slot = find(key);
        if (slot >= 0) {
            int old = values[slot];
            values[slot] = value;
            return old;
        }
        if (4 * (size + 1) > 3 * keys.length) { // load at most 3/4
            grow();
            slot = find(key);
        }
        int free = -1 - slot;
        keys[free] = key;
        values[free] = value;
        size++;
        return MISSING;
    }

    /** Removes {@code key}; returns its number, or {@link #MISSING}. */
    public int remove(Object key) {
        if (key == null) {
            return MISSING;
        }
        int slot = find(key);
        if (slot < 0) {
            return MISSING;
        }
        int old = values[slot];
        delete(slot);
        size--;
        return old;
    }

    public void clear() {
        Arrays.fill(keys, null);
        size = 0;
    }

    /** The slot holding {@code key}, or {@code -1 - s} for the free slot {@code s} where it would go. */
    private int find(Object key) {
        int mask = keys.length - 1;
        int slot = home(key, mask);
        for (Object held = keys[slot]; held != null; held = keys[slot]) {
            if (held == key || held.equals(key)) {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
        return -1 - slot;
    }

    /** Where {@code key}'s probe starts: its hash spread by the golden ratio, as {@link OpenHashTable}'s. */
    private static int home(Object key, int mask) {
        int h = key.hashCode() * 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }

    /** Frees {@code slot}, moving later keys of its probe run back so that every key stays reachable. */
    private void delete(int slot) {
        int mask = keys.length - 1;
        int free = slot;
        for (int next = (free + 1) & mask; keys[next] != null; next = (next + 1) & mask) {
            int home = home(keys[next], mask);
            // The key at next may move to free when its home is not cyclically within (free, next].
            if (((next - home) & mask) >= ((next - free) & mask)) {
                keys[free] = keys[next];
                values[free] = values[next];
                free = next;
            }
        }
        keys[free] = null;
    }

    private void grow() {
        Object[] oldKeys = keys;
        int[] oldValues = values;
        keys = new Object[oldKeys.length * 2];
        values = new int[oldKeys.length * 2];
        int mask = keys.length - 1;
        for (int i = 0; i < oldKeys.length; i++) {
            Object key = oldKeys[i];
            if (key != null) {
                int slot = home(key, mask);
                while (keys[slot] != null) {
                    slot = (slot + 1) & mask;
                }
                keys[slot] = key;
                values[slot] = oldValues[i];
            }
        }
    }
}
