package io.kvledger.domain.state;

import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.stream.Stream;

/**
 * A set of job ids, ascending: a request's jobs in flight, or the stores that fence a block
 * ({@link EngineState#fences()}). Immutable; a request has one load or a few stores in flight, and a block a
 * few stores fencing it, so every change copies the small sorted array (cheaper than a tree's nodes). Iterates,
 * prints and snapshots as the persistent {@code TreeSet<Long>} it replaced did.
 */
public final class JobIds implements Iterable<Long> {

    public static final JobIds EMPTY = new JobIds(new long[0]);

    private final long[] ids;

    private JobIds(long[] ids) {
        this.ids = ids;
    }

    /** The set of {@code ids} (repeats once), ascending. */
    public static JobIds of(Iterable<Long> ids) {
        JobIds set = EMPTY;
        for (Long id : ids) {
            set = set.add(java.util.Objects.requireNonNull(id, "a job id is never null"));
        }
        return set;
    }

    public static JobIds of(long... ids) {
        JobIds set = EMPTY;
        for (long id : ids) {
            set = set.add(id);
        }
        return set;
    }

    /** With {@code id}; this set itself when it holds it. */
    public JobIds add(long id) {
        int at = Arrays.binarySearch(ids, id);
        if (at >= 0) {
            return this;
        }
        int insert = -at - 1;
        long[] grown = new long[ids.length + 1];
        System.arraycopy(ids, 0, grown, 0, insert);
        grown[insert] = id;
        System.arraycopy(ids, insert, grown, insert + 1, ids.length - insert);
        return new JobIds(grown);
    }

    /** Without {@code id}; this set itself when it lacks it. */
    public JobIds remove(long id) {
        int at = Arrays.binarySearch(ids, id);
        if (at < 0) {
            return this;
        }
        if (ids.length == 1) {
            return EMPTY;
        }
        long[] shrunk = new long[ids.length - 1];
        System.arraycopy(ids, 0, shrunk, 0, at);
        System.arraycopy(ids, at + 1, shrunk, at, ids.length - at - 1);
        return new JobIds(shrunk);
    }

    public boolean contains(long id) {
        return Arrays.binarySearch(ids, id) >= 0;
    }


    /** The {@code index}-th smallest id. */
    public long get(int index) {
        return ids[index];
    }

    public int size() {
        return ids.length;
    }

    public boolean isEmpty() {
        return ids.length == 0;
    }

    @Override
    public Iterator<Long> iterator() {
        return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < ids.length;
            }

            @Override
            public Long next() {
                if (next >= ids.length) {
                    throw new NoSuchElementException();
                }
                return ids[next++];
            }
        };
    }

    /** The ids ascending, as a mutable list (Vavr's {@code toJavaList()}). */
    public List<Long> toJavaList() {
        List<Long> list = new java.util.ArrayList<>(ids.length);
        for (long id : ids) {
            list.add(id);
        }
        return list;
    }

    /** The ids, as a mutable set iterated ascending (Vavr's {@code toJavaSet()}). */
    public java.util.SortedSet<Long> toJavaSet() {
        java.util.SortedSet<Long> set = new java.util.TreeSet<>();
        for (long id : ids) {
            set.add(id);
        }
        return set;
    }

    /** The ids ascending (Vavr's {@code toJavaStream()}). */
    public Stream<Long> toJavaStream() {
        return Arrays.stream(ids).boxed();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof JobIds set && Arrays.equals(ids, set.ids);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(ids);
    }

    /** As Vavr's {@code TreeSet} wrote itself: the state's text ({@code EngineState.toString}) stays as it was. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("TreeSet(");
        for (int i = 0; i < ids.length; i++) {
            text.append(i == 0 ? "" : ", ").append(ids[i]);
        }
        return text.append(')').toString();
    }
}
