package io.kvledger.containers;

import java.util.List;
import java.util.Map;

/**
 * A {@link StateMap} on a hash table ({@link OpenHashTable}) that iterates, prints and snapshots in its keys'
 * natural order (request ids and block ids ascending): a canonical order, the same whatever the table's hashing,
 * so nothing a user sees depends on it. Its keys are {@link Comparable}. Lookups and changes cost a hash table's;
 * only iterating the whole map sorts.
 */
public final class StateHashMap<K, V> extends StateMap<K, V, StateHashMap<K, V>> {

    private StateHashMap(Map<K, V> table) {
        super(table);
    }

    /** A new, empty map. */
    public static <K, V> StateHashMap<K, V> empty() {
        return new StateHashMap<>(new OpenHashTable<>());
    }

    /** The map of {@code entries} (a snapshot's; a later entry of a key replaces an earlier one). */
    public static <K, V> StateHashMap<K, V> ofEntries(Iterable<? extends Map.Entry<K, V>> entries) {
        return new StateHashMap<>(filled(new OpenHashTable<>(), entries));
    }

    @Override
    protected StateHashMap<K, V> make(Map<K, V> table) {
        return new StateHashMap<>(table);
    }

    @Override
    protected Map<K, V> copyOf(Map<K, V> from) {
        return new OpenHashTable<>(from);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    protected List<Map.Entry<K, V>> ordered(Map<K, V> table) {
        // The table's iterator makes a fresh immutable entry per key already: taken as they are, not copied again.
        List<Map.Entry<K, V>> entries = new java.util.ArrayList<>(table.entrySet());
        entries.sort((a, b) -> ((Comparable) a.getKey()).compareTo(b.getKey())); // keys are ids: strings, integers
        return entries;
    }

    @Override
    protected String kind() {
        return "HashMap";
    }
}
