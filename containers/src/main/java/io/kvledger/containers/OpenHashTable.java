package io.kvledger.containers;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The hash table under {@link StateHashMap} and the domain's retired requests: linear probing over two flat arrays
 * (keys, values), no entry object per
 * key. It remembers the slot of the key last found or put, by identity: a fold looks a request up and then puts
 * its new value under the same id object, and a decision reads the request an earlier read of the same command
 * found, so those find their slot without hashing or probing again (the request map's look-ups and puts were a
 * fifth of a decode step's CPU on {@code java.util.HashMap}). Keys and values are never {@code null}; iteration
 * is in slot order, which {@link StateHashMap} sorts before anyone sees it.
 *
 * <p>A look-up writes the remembered slot, so like the state it serves the table has one owner thread. Readers
 * on other threads while nothing changes it stay correct (the slot is checked against the key before use), as
 * {@code java.util.HashMap}'s would.
 */
public final class OpenHashTable<K, V> extends AbstractMap<K, V> {

    private static final int MIN_CAPACITY = 16;

    private Object[] keys;
    private Object[] values;
    private int size;
    /** The slot of the key last found or put, or -1; checked by identity, so only a slot still holding it counts. */
    private int last = -1;

    public OpenHashTable() {
        keys = new Object[MIN_CAPACITY];
        values = new Object[MIN_CAPACITY];
    }

    /** A table of its own holding {@code from}'s entries (the arrays cloned when {@code from} is one). */
    public OpenHashTable(Map<K, V> from) {
        if (from instanceof OpenHashTable<K, V> table) {
            keys = table.keys.clone();
            values = table.values.clone();
            size = table.size;
        } else {
            keys = new Object[MIN_CAPACITY];
            values = new Object[MIN_CAPACITY];
            from.forEach(this::put);
        }
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean containsKey(Object key) {
        return key != null && find(key) >= 0;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V get(Object key) {
        if (key == null) {
            return null;
        }
        int slot = find(key);
        return slot >= 0 ? (V) values[slot] : null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V put(K key, V value) {
        Objects.requireNonNull(key, "no null keys");
        Objects.requireNonNull(value, "no null values");
        int slot = find(key);
        if (slot >= 0) {
            V old = (V) values[slot];
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
        last = free;
        return null;
    }

    @Override
    @SuppressWarnings("unchecked")
    public V remove(Object key) {
        if (key == null) {
            return null;
        }
        int slot = find(key);
        if (slot < 0) {
            return null;
        }
        V old = (V) values[slot];
        delete(slot);
        size--;
        last = -1; // the delete may have moved keys between slots
        return old;
    }

    /** Every value replaced by {@code function}'s, in place (the keys stay in their slots). */
    @Override
    @SuppressWarnings("unchecked")
    public void replaceAll(java.util.function.BiFunction<? super K, ? super V, ? extends V> function) {
        for (int slot = 0; slot < keys.length; slot++) {
            if (keys[slot] != null) {
                values[slot] = java.util.Objects.requireNonNull(function.apply((K) keys[slot], (V) values[slot]));
            }
        }
    }

    @Override
    public void clear() {
        java.util.Arrays.fill(keys, null);
        java.util.Arrays.fill(values, null);
        size = 0;
        last = -1;
    }

    /** The slot holding {@code key}, or {@code -1 - s} for the free slot {@code s} where it would go. */
    private int find(Object key) {
        int remembered = last;
        if (remembered >= 0 && keys[remembered] == key) {
            return remembered;
        }
        int mask = keys.length - 1;
        int slot = home(key, mask);
        for (Object held = keys[slot]; held != null; held = keys[slot]) {
            if (held == key || held.equals(key)) {
                last = slot;
                return slot;
            }
            slot = (slot + 1) & mask;
        }
        return -1 - slot;
    }

    /**
     * Where {@code key}'s probe starts. Ids are often a prefix and a counter ("req-1041"), whose string hashes are
     * consecutive: multiplying by the golden ratio spreads them, so that a run of them does not fill a run of slots.
     */
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
        values[free] = null;
    }

    private void grow() {
        Object[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new Object[oldKeys.length * 2];
        values = new Object[oldKeys.length * 2];
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
        last = -1;
    }

    @Override
    public Set<Map.Entry<K, V>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return size;
            }

            @Override
            public Iterator<Map.Entry<K, V>> iterator() {
                return new Iterator<>() {
                    private int slot = advance(0);

                    private int advance(int from) {
                        int at = from;
                        while (at < keys.length && keys[at] == null) {
                            at++;
                        }
                        return at;
                    }

                    @Override
                    public boolean hasNext() {
                        return slot < keys.length;
                    }

                    @Override
                    @SuppressWarnings("unchecked")
                    public Map.Entry<K, V> next() {
                        if (slot >= keys.length) {
                            throw new NoSuchElementException();
                        }
                        Map.Entry<K, V> entry = Map.entry((K) keys[slot], (V) values[slot]);
                        slot = advance(slot + 1);
                        return entry;
                    }
                };
            }
        };
    }
}
