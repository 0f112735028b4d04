package io.kvledger.domain.state;

import java.util.List;
import java.util.Map;

/**
 * A {@link VersionedMap} on a hash table that iterates, prints and snapshots in its keys' natural order (request
 * ids and block ids ascending): a canonical order, the same whatever the table's hashing, so nothing a user sees
 * depends on it. Its keys are {@link Comparable}. Lookups and changes cost a hash table's; only iterating the whole map sorts.
 */
public final class VersionedHashMap<K, V> extends VersionedMap<K, V, VersionedHashMap<K, V>> {

    private VersionedHashMap(Object lock, Map<K, V> table, int changes) {
        super(lock, table, changes);
    }

    /** A new, empty map: the start of a line of its own. */
    public static <K, V> VersionedHashMap<K, V> empty() {
        return new VersionedHashMap<>(new Object(), new java.util.HashMap<>(), 0);
    }

    /** The map of {@code entries} (a snapshot's; a later entry of a key replaces an earlier one). */
    public static <K, V> VersionedHashMap<K, V> ofEntries(Iterable<? extends Map.Entry<K, V>> entries) {
        return new VersionedHashMap<>(new Object(), filled(new java.util.HashMap<>(), entries), 0);
    }

    /** The keys in order (a persistent copy). */
    public io.vavr.collection.Set<K> keySet() {
        return io.vavr.collection.LinkedHashSet.ofAll(keyList());
    }

    @Override
    protected VersionedHashMap<K, V> make(Object lock, Map<K, V> table, int changes) {
        return new VersionedHashMap<>(lock, table, changes);
    }

    @Override
    protected Map<K, V> copyOf(Map<K, V> from) {
        return new java.util.HashMap<>(from);
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    protected List<Map.Entry<K, V>> ordered(Map<K, V> table) {
        List<Map.Entry<K, V>> entries = super.ordered(table);
        entries.sort((a, b) -> ((Comparable) a.getKey()).compareTo(b.getKey())); // keys are ids: strings, integers
        return entries;
    }

    @Override
    protected String kind() {
        return "HashMap";
    }
}
