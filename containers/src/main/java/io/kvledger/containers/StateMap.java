package io.kvledger.containers;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * A map changed in place by its one owner (in kvledger, the fold of the state): {@link #put} and {@link #remove}
 * change this map's table and return this very map (so the fold's
 * {@code state.withRequests(state.requests().put(...))} reads as a change of the state). No older version of the
 * map is kept: whoever must look back keeps a {@link #copy()} (the domain's {@code EngineState.copy()} copies
 * each of its maps).
 *
 * <p>Keys and values are never {@code null} (a {@code null} key is held by none). {@link StateHashMap} and
 * {@link StateTreeMap} iterate, print and snapshot in key order (a hash table sorted when iterated, a tree): the
 * subclass chooses the table and the order.
 *
 * @param <M> the subclass, which every change returns
 */
public abstract class StateMap<K, V, M extends StateMap<K, V, M>> {

    private final Map<K, V> table;

    protected StateMap(Map<K, V> table) {
        this.table = table;
    }

    /** A map of the subclass on {@code table}. */
    protected abstract M make(Map<K, V> table);

    /** A new mutable table holding {@code from}'s entries. */
    protected abstract Map<K, V> copyOf(Map<K, V> from);

    /** The entries of {@code table} in the map's iteration order (a fresh list): the table's own order here. */
    protected List<Map.Entry<K, V>> ordered(Map<K, V> table) {
        List<Map.Entry<K, V>> entries = new ArrayList<>(table.size());
        for (Map.Entry<K, V> entry : table.entrySet()) {
            entries.add(Map.entry(entry.getKey(), entry.getValue()));
        }
        return entries;
    }

    /** {@code table} holding {@code entries} (a snapshot's; a later entry of a key replaces an earlier one). */
    protected static <K, V, T extends Map<K, V>> T filled(T table, Iterable<? extends Map.Entry<K, V>> entries) {
        for (Map.Entry<K, V> entry : entries) {
            table.put(Objects.requireNonNull(entry.getKey(), "no null keys"),
                    Objects.requireNonNull(entry.getValue(), "no null values"));
        }
        return table;
    }

    /** The name {@link #toString} starts with. */
    protected abstract String kind();

    @SuppressWarnings("unchecked")
    private M self() {
        return (M) this;
    }

    public int size() {
        return table.size();
    }

    public boolean isEmpty() {
        return table.isEmpty();
    }

    /** The value of {@code key}, or {@code other} when the map holds none (a {@code null} key is never held). */
    public V getOrElse(K key, V other) {
        V value = key == null ? null : table.get(key);
        return value == null ? other : value;
    }

    public boolean containsKey(K key) {
        return key != null && table.containsKey(key);
    }

    /** Sets {@code key} to {@code value} in place; returns this map. */
    public M put(K key, V value) {
        table.put(Objects.requireNonNull(key, "a state map holds no null keys"),
                Objects.requireNonNull(value, "a state map holds no null values"));
        return self();
    }

    /** Removes {@code key} in place; returns this map. */
    public M remove(K key) {
        if (key != null) {
            table.remove(key);
        }
        return self();
    }

    /**
     * A map of its own with the same entries: a change of either leaves the other as it was. Costs a copy of
     * the table (one entry per key; the values, immutable, are shared).
     */
    public M copy() {
        return make(copyOf(table));
    }

    /**
     * A map of its own whose values are {@code copyOfValue}'s copies of this one's: for values the owner changes in
     * place (the state's requests), so a change of either map or of its values leaves the other as it was.
     */
    public M copy(java.util.function.UnaryOperator<V> copyOfValue) {
        Map<K, V> copied = copyOf(table);
        copied.replaceAll((key, value) -> copyOfValue.apply(value));
        return make(copied);
    }

    /** Every entry in the map's order (a copy). */
    public List<Map.Entry<K, V>> entries() {
        return ordered(table);
    }

    /** Every value in the map's order (a mutable copy). */
    public List<V> values() {
        List<Map.Entry<K, V>> entries = entries();
        List<V> values = new ArrayList<>(entries.size());
        for (Map.Entry<K, V> entry : entries) {
            values.add(entry.getValue());
        }
        return values;
    }

    /** Every key, iterated in the map's order (a mutable copy); {@link #keyList()} as a set. */
    public Set<K> keySet() {
        return new LinkedHashSet<>(keyList());
    }

    /** Every key in the map's order (a copy). */
    public List<K> keyList() {
        List<Map.Entry<K, V>> entries = entries();
        List<K> keys = new ArrayList<>(entries.size());
        for (Map.Entry<K, V> entry : entries) {
            keys.add(entry.getKey());
        }
        return keys;
    }

    /** Every entry in the map's order, as a mutable copy. */
    public Map<K, V> toJavaMap() {
        Map<K, V> copy = new java.util.LinkedHashMap<>();
        for (Map.Entry<K, V> entry : entries()) {
            copy.put(entry.getKey(), entry.getValue());
        }
        return copy;
    }

    /**
     * Whether some value passes {@code test}. Walks the table in its own order without copying it: for a question
     * whose answer no order changes (the map's order is the one {@link #entries} gives).
     */
    public boolean anyValue(java.util.function.Predicate<? super V> test) {
        for (V value : table.values()) {
            if (test.test(value)) {
                return true;
            }
        }
        return false;
    }

    public void forEach(BiConsumer<? super K, ? super V> action) {
        for (Map.Entry<K, V> entry : entries()) {
            action.accept(entry.getKey(), entry.getValue());
        }
    }

    @Override
    public boolean equals(Object other) {
        return this == other
                || other != null && other.getClass() == getClass() && table.equals(((StateMap<?, ?, ?>) other).table);
    }

    @Override
    public int hashCode() {
        return table.hashCode();
    }

    /**
     * In the map's order, as the persistent maps it replaced printed (the state's text stays as it was):
     * {@code HashMap((key, value), ...)}, {@code TreeMap((key, value), ...)}.
     */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder(kind()).append('(');
        String separator = "";
        for (Map.Entry<K, V> entry : entries()) {
            out.append(separator).append('(').append(entry.getKey()).append(", ").append(entry.getValue()).append(')');
            separator = ", ";
        }
        return out.append(')').toString();
    }
}
