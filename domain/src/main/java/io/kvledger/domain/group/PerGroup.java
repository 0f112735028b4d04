package io.kvledger.domain.group;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * A per-group field (contract section 7.2): one list per KV cache group, in group order. With one group
 * it is the list sections 2-3 describe ({@link #flat()} gives it without a copy); the log writes it as
 * that list for one group and as a list of lists for two or more. Immutable. Entries may be {@code null}
 * only where section 7.2 allows it (a sliding group's allocated blocks), which the decision checks.
 *
 * @param <T> the entries (block ids, chunk indices or keys)
 */
public final class PerGroup<T> {

    private static final PerGroup<?> EMPTY_SINGLE = new PerGroup<>(List.of(List.of()));

    private final List<List<T>> lists;

    private PerGroup(List<List<T>> lists) {
        this.lists = lists;
    }

    /** The field of a single group: {@code list} itself when it is already immutable. */
    public static <T> PerGroup<T> single(List<T> list) {
        if (list.isEmpty()) {
            return emptySingle();
        }
        return new PerGroup<>(List.of(frozen(list)));
    }

    @SuppressWarnings("unchecked")
    public static <T> PerGroup<T> emptySingle() {
        return (PerGroup<T>) EMPTY_SINGLE;
    }

    /** One list per group, in group order (at least one). */
    public static <T> PerGroup<T> of(List<? extends List<T>> lists) {
        if (lists.isEmpty()) {
            throw new IllegalArgumentException("a per-group field has at least one group");
        }
        if (lists.size() == 1) {
            return single(lists.get(0));
        }
        // Lists that are immutable already, in an immutable list, are taken as they are (an offer's, a store's).
        boolean frozenAlready = IMMUTABLE.isInstance(lists) || IMMUTABLE_SMALL.isInstance(lists);
        Object[] copies = new Object[lists.size()];
        for (int g = 0; g < copies.length; g++) {
            List<T> list = lists.get(g);
            List<T> frozen = frozen(list);
            frozenAlready &= frozen == list;
            copies[g] = frozen;
        }
        if (frozenAlready) {
            @SuppressWarnings("unchecked")
            List<List<T>> same = (List<List<T>>) lists;
            return new PerGroup<>(same);
        }
        @SuppressWarnings("unchecked")
        List<List<T>> frozenLists = (List<List<T>>) (List<?>) List.of(copies);
        return new PerGroup<>(frozenLists);
    }

    @SafeVarargs
    public static <T> PerGroup<T> of(List<T>... lists) {
        return of(Arrays.asList(lists));
    }

    /** {@code groups} empty lists. */
    public static <T> PerGroup<T> empty(int groups) {
        if (groups == 1) {
            return emptySingle();
        }
        List<List<T>> lists = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            lists.add(List.of());
        }
        return new PerGroup<>(List.copyOf(lists));
    }

    /** {@code G}, the number of lists. */
    public int groupCount() {
        return lists.size();
    }

    /** Group {@code g}'s list. */
    public List<T> group(int g) {
        return lists.get(g);
    }

    /** Every list, in group order. */
    public List<List<T>> lists() {
        return lists;
    }

    /**
     * The lists one after another in group order: for one group its list itself, without a copy (what a
     * consumer of the single-group log reads).
     */
    @SuppressWarnings("unchecked")
    public List<T> flat() {
        if (lists.size() == 1) {
            return lists.get(0);
        }
        Object[] all = new Object[totalSize()];
        boolean nulls = false;
        int at = 0;
        for (List<T> list : lists) {
            for (int i = 0; i < list.size(); i++) {
                T value = list.get(i);
                nulls |= value == null;
                all[at++] = value;
            }
        }
        return nulls ? new NullableList<>(all) : (List<T>) List.of(all);
    }

    /** Entries over all groups. */
    public int totalSize() {
        int size = 0;
        for (List<T> list : lists) {
            size += list.size();
        }
        return size;
    }

    /** Whether every group's list is empty. */
    public boolean isEmpty() {
        for (List<T> list : lists) {
            if (!list.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PerGroup<?> that && lists.equals(that.lists);
    }

    @Override
    public int hashCode() {
        return lists.hashCode();
    }

    @Override
    public String toString() {
        return lists.size() == 1 ? lists.get(0).toString() : lists.toString();
    }

    /** An immutable copy that keeps {@code null} entries; an immutable list is taken as it is. */
    private static <T> List<T> frozen(List<T> list) {
        if (list instanceof NullableList<T> || IMMUTABLE.isInstance(list) || IMMUTABLE_SMALL.isInstance(list)) {
            return list;
        }
        Object[] values = list.toArray();
        for (Object value : values) {
            if (value == null) {
                return new NullableList<>(values);
            }
        }
        return List.copyOf(list);
    }

    private static final Class<?> IMMUTABLE = List.of(1, 2, 3).getClass();
    private static final Class<?> IMMUTABLE_SMALL = List.of(1).getClass();

    /** An immutable list that may hold {@code null}. */
    private static final class NullableList<T> extends AbstractList<T> implements RandomAccess {

        private final Object[] values;

        NullableList(Object[] values) {
            this.values = values;
        }

        @Override
        @SuppressWarnings("unchecked")
        public T get(int index) {
            return (T) values[index];
        }

        @Override
        public int size() {
            return values.length;
        }
    }
}
