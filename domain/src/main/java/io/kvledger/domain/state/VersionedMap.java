package io.kvledger.domain.state;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * A map that is a value, as every part of the state (a change gives a new map and leaves this one as it was),
 * yet changes in place underneath: the newest map of a line of changes owns a plain mutable table and a
 * change updates it, so the fold pays a hash-map (or tree-map) update rather than a persistent map's path
 * copy. The map it changed keeps only what the change replaced (an undo) and a link to the newer map, and
 * reads through them. Nothing newer points back, so an old map nobody keeps is collected with its undo.
 *
 * <ul>
 *   <li>An old map read more than {@link #MERGE_AFTER} changes away merges the undos between it and the
 *       newest into one, so the next read is one lookup again (a fold step changes many keys one at a time).</li>
 *   <li>An old map iterated whole, changed again (a second branch: the audit where a log departs from the
 *       rules, time travel) or whose merged undo grows past a quarter of the table first takes a copy of its own.</li>
 *   <li>The newest takes a fresh copy of its table after {@code max(4096, size)} changes in place and leaves
 *       the old one to the map before it, so a kept old map holds at most that many undos alive.</li>
 *   <li>Each method takes the line's lock, so a map may be read on another thread than the one changing its
 *       line (the simulator's checks, a store writing a snapshot).</li>
 * </ul>
 *
 * <p>Keys and values are never {@code null} (a {@code null} key is held by none). {@link VersionedHashMap} and {@link VersionedTreeMap}
 * iterate in key order (a hash table sorted when iterated, a tree): the subclass chooses the table and the order.
 *
 * @param <M> the subclass, which every change returns
 */
public abstract class VersionedMap<K, V, M extends VersionedMap<K, V, M>> {

    /** Stands for "no value" in an undo. */
    private static final Object ABSENT = new Object();
    /** Beyond this many newer maps, a read merges the undos on its way into one. */
    private static final int MERGE_AFTER = 4;
    /** The newest map copies its table after at least this many changes in place. */
    private static final int COPY_EVERY = 4096;

    private final Object lock;
    private final int size;
    /** Changes in place since {@link #table} was copied, while this map holds it. */
    private int changes;
    /** The table, while this is the newest map of its line (or has a copy of its own); else {@code null}. */
    private Map<K, V> table;
    /** When {@link #table} is {@code null}: the one key the change to {@link #newer} replaced, and its value. */
    private K undoKey;
    private Object undoValue;
    /** Or, after a merge, every key replaced between this map and {@link #newer}, with its value here. */
    private java.util.HashMap<K, Object> undoMany;
    private M newer;

    protected VersionedMap(Object lock, Map<K, V> table, int changes) {
        this.lock = lock;
        this.table = table;
        this.size = table.size();
        this.changes = changes;
    }

    /** A map of the subclass on {@code table}, in the line of {@code lock}. */
    protected abstract M make(Object lock, Map<K, V> table, int changes);

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
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The value of {@code key}, or {@code other} when the map holds none (a {@code null} key is never held). */
    public V getOrElse(K key, V other) {
        if (key == null) {
            return other;
        }
        V value;
        synchronized (lock) {
            value = lookup(key);
        }
        return value == null ? other : value;
    }

    public boolean containsKey(K key) {
        return getOrElse(key, null) != null;
    }

    /** This map with {@code key} set to {@code value}; this one is left as it was. */
    public M put(K key, V value) {
        Objects.requireNonNull(key, "a state map holds no null keys");
        Objects.requireNonNull(value, "a state map holds no null values");
        synchronized (lock) {
            Map<K, V> own = ownTable();
            if (changes >= Math.max(COPY_EVERY, own.size())) {
                return split(own, key, value);
            }
            V held = own.put(key, value);
            return held == value ? self() : changedInPlace(own, key, held == null ? ABSENT : held);
        }
    }

    /** This map without {@code key}; this one is left as it was. */
    public M remove(K key) {
        if (key == null) {
            return self();
        }
        synchronized (lock) {
            Map<K, V> own = ownTable();
            if (changes >= Math.max(COPY_EVERY, own.size())) {
                return own.containsKey(key) ? split(own, key, null) : self();
            }
            V held = own.remove(key);
            return held == null ? self() : changedInPlace(own, key, held);
        }
    }

    /** Every entry in the map's order (a copy). */
    public List<Map.Entry<K, V>> entries() {
        synchronized (lock) {
            return ordered(ownTable());
        }
    }

    /** Every value in the map's order (a copy). */
    public io.vavr.collection.Seq<V> values() {
        List<Map.Entry<K, V>> entries = entries();
        List<V> values = new ArrayList<>(entries.size());
        for (Map.Entry<K, V> entry : entries) {
            values.add(entry.getValue());
        }
        return io.vavr.collection.Vector.ofAll(values);
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

    public void forEach(BiConsumer<? super K, ? super V> action) {
        for (Map.Entry<K, V> entry : entries()) {
            action.accept(entry.getKey(), entry.getValue());
        }
    }

    /** A new line: this map keeps its table as it was, so nothing older reaches the copy with the change. */
    private M split(Map<K, V> own, K key, V value) {
        Map<K, V> copy = copyOf(own);
        set(copy, key, value);
        return make(new Object(), copy, 0);
    }

    /** The map after the change of {@code key} in {@code own}, this one keeping its value before ({@link #ABSENT} for none). */
    private M changedInPlace(Map<K, V> own, K key, Object before) {
        M next = make(lock, own, changes + 1);
        table = null;
        undoKey = key;
        undoValue = before;
        newer = next;
        return next;
    }

    private static <K, V> void set(Map<K, V> table, K key, V value) {
        if (value == null) {
            table.remove(key);
        } else {
            table.put(key, value);
        }
    }

    /** What this map's undo holds for {@code key}: its value here, {@link #ABSENT}, or {@code null} when not named. */
    private Object undone(K key) {
        if (undoMany != null) {
            return undoMany.get(key);
        }
        return key == undoKey || key != null && key.equals(undoKey) ? undoValue : null;
    }

    /** This map's value of {@code key}: the nearest newer undo that names it, else the newest table. */
    @SuppressWarnings("unchecked")
    private V lookup(K key) {
        VersionedMap<K, V, M> version = this;
        int hops = 0;
        Object found = null;
        while (version.table == null) {
            found = version.undone(key);
            if (found != null) {
                break;
            }
            version = version.newer;
            hops++;
        }
        if (found == null) {
            found = version.table.get(key);
        }
        if (hops > MERGE_AFTER) {
            merge();
        }
        return found == ABSENT ? null : (V) found;
    }

    /** Merges the undos between this map and the newest table into one, or takes a copy when that is cheaper. */
    private void merge() {
        java.util.HashMap<K, Object> overlay = new java.util.HashMap<>();
        VersionedMap<K, V, M> newest = walk(overlay);
        if (overlay.size() > Math.max(64, newest.table.size() / 4)) {
            ownTable();
            return;
        }
        undoMany = overlay;
        undoKey = null;
        undoValue = null;
        newer = newest.self();
    }

    /** The table of this map, a copy of its own taken first when it is not the newest of its line. */
    @SuppressWarnings("unchecked")
    private Map<K, V> ownTable() {
        if (table == null) {
            java.util.HashMap<K, Object> overlay = new java.util.HashMap<>();
            Map<K, V> copy = copyOf(walk(overlay).table);
            for (Map.Entry<K, Object> entry : overlay.entrySet()) {
                set(copy, entry.getKey(), entry.getValue() == ABSENT ? null : (V) entry.getValue());
            }
            table = copy;
            changes = 0;
            undoKey = null;
            undoValue = null;
            undoMany = null;
            newer = null;
        }
        return table;
    }

    /** The map holding the newest table of the line, filling {@code overlay} with what this map holds instead. */
    private VersionedMap<K, V, M> walk(Map<K, Object> overlay) {
        VersionedMap<K, V, M> version = this;
        while (version.table == null) {
            if (version.undoMany != null) {
                version.undoMany.forEach(overlay::putIfAbsent);
            } else {
                overlay.putIfAbsent(version.undoKey, version.undoValue);
            }
            version = version.newer;
        }
        return version;
    }

    @Override
    public boolean equals(Object other) {
        if (this == other) {
            return true;
        }
        if (other == null || other.getClass() != getClass() || size != ((VersionedMap<?, ?, ?>) other).size) {
            return false;
        }
        VersionedMap<?, ?, ?> that = (VersionedMap<?, ?, ?>) other;
        Map<K, V> mine;
        synchronized (lock) {
            mine = new java.util.HashMap<>(ownTable());
        }
        synchronized (that.lock) {
            return mine.equals(that.ownTable());
        }
    }

    @Override
    public int hashCode() {
        synchronized (lock) {
            return ownTable().hashCode();
        }
    }

    /** As Vavr's maps print, in the map's order: {@code HashMap((key, value), ...)}. */
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
