package io.kvledger.domain.state;

import java.util.List;
import java.util.Map;

/**
 * A {@link VersionedMap} on a hash table that iterates, prints and snapshots in the order Vavr's
 * {@code HashMap} did: its hash trie visits keys by their hash's five-bit groups, lowest group first. Keys of
 * equal hash (which Vavr ordered by the history of their puts) come in their natural order.
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

    /** The keys in order (a persistent copy, as Vavr's {@code HashMap.keySet()}). */
    public io.vavr.collection.Set<K> keySet() {
        return io.vavr.collection.HashSet.ofAll(keyList());
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
        entries.sort((a, b) -> {
            int order = Long.compare(trieOrder(a.getKey().hashCode()), trieOrder(b.getKey().hashCode()));
            return order != 0 ? order : ((Comparable) a.getKey()).compareTo(b.getKey());
        });
        return entries;
    }

    @Override
    protected String kind() {
        return "HashMap";
    }

    /** The hash's five-bit groups, lowest first, as one number: the trie's visiting order. */
    static long trieOrder(int hash) {
        long order = 0;
        for (int shift = 0; shift < 32; shift += 5) {
            order = (order << 5) | ((hash >>> shift) & 31);
        }
        return order;
    }
}
