package io.kvledger.domain.state;

import java.util.Map;

/** A {@link VersionedMap} on a red-black tree: iterates, prints and snapshots in key order, as Vavr's {@code TreeMap}. */
public final class VersionedTreeMap<K extends Comparable<K>, V> extends VersionedMap<K, V, VersionedTreeMap<K, V>> {

    private VersionedTreeMap(Object lock, Map<K, V> table, int changes) {
        super(lock, table, changes);
    }

    /** A new, empty map: the start of a line of its own. */
    public static <K extends Comparable<K>, V> VersionedTreeMap<K, V> empty() {
        return new VersionedTreeMap<K, V>(new Object(), new java.util.TreeMap<K, V>(), 0);
    }

    /** The map of {@code entries} (a snapshot's; a later entry of a key replaces an earlier one). */
    public static <K extends Comparable<K>, V> VersionedTreeMap<K, V> ofEntries(Iterable<? extends Map.Entry<K, V>> entries) {
        return new VersionedTreeMap<K, V>(new Object(), filled(new java.util.TreeMap<K, V>(), entries), 0);
    }

    /** The keys in order (a persistent copy, as Vavr's {@code TreeMap.keySet()}). */
    public io.vavr.collection.SortedSet<K> keySet() {
        return io.vavr.collection.TreeSet.ofAll(keyList());
    }

    @Override
    protected VersionedTreeMap<K, V> make(Object lock, Map<K, V> table, int changes) {
        return new VersionedTreeMap<>(lock, table, changes);
    }

    @Override
    protected Map<K, V> copyOf(Map<K, V> from) {
        return new java.util.TreeMap<>(from);
    }

    @Override
    protected String kind() {
        return "TreeMap";
    }
}
