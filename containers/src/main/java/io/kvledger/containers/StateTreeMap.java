package io.kvledger.containers;

import java.util.Map;

/** A {@link StateMap} on a red-black tree ({@code java.util.TreeMap}): iterates, prints and snapshots in key order. */
public final class StateTreeMap<K extends Comparable<K>, V> extends StateMap<K, V, StateTreeMap<K, V>> {

    private StateTreeMap(Map<K, V> table) {
        super(table);
    }

    /** A new, empty map. */
    public static <K extends Comparable<K>, V> StateTreeMap<K, V> empty() {
        return new StateTreeMap<K, V>(new java.util.TreeMap<K, V>());
    }

    /** The map of {@code entries} (a snapshot's; a later entry of a key replaces an earlier one). */
    public static <K extends Comparable<K>, V> StateTreeMap<K, V> ofEntries(Iterable<? extends Map.Entry<K, V>> entries) {
        return new StateTreeMap<K, V>(filled(new java.util.TreeMap<K, V>(), entries));
    }

    @Override
    protected StateTreeMap<K, V> make(Map<K, V> table) {
        return new StateTreeMap<>(table);
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
