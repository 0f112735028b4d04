package io.kvledger.containers;

import java.util.AbstractList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * An immutable list that grows at its end in amortised constant time per element: every version is a length
 * over one array shared with the versions it grew from, under the {@link SharedArray} protocol (a version
 * appends in place only while no other version has; otherwise it copies). What a version can see, its first
 * {@code size} slots, is never written again, so an older version never changes. Its versions grow on one
 * thread. Holds no {@code null}.
 */
public final class AppendOnlyList<E> extends AbstractList<E> implements RandomAccess {

    private static final AppendOnlyList<?> EMPTY = new AppendOnlyList<>(SharedObjects.EMPTY, 0);

    private final SharedObjects shared;
    private final int size;

    private AppendOnlyList(SharedObjects shared, int size) {
        this.shared = shared;
        this.size = size;
    }

    @SuppressWarnings("unchecked")
    public static <E> AppendOnlyList<E> empty() {
        return (AppendOnlyList<E>) EMPTY;
    }

    /** The list of {@code values}, in their order. */
    public static <E> AppendOnlyList<E> of(List<? extends E> values) {
        if (values.isEmpty()) {
            return empty();
        }
        Object[] slots = new Object[values.size()];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = Objects.requireNonNull(values.get(i), "an append-only list holds no nulls");
        }
        return new AppendOnlyList<>(new SharedObjects(slots, slots.length), slots.length);
    }

    /** This list followed by {@code more} (none of them {@code null}); this one is left as it was. */
    public AppendOnlyList<E> plus(E[] more) {
        if (more.length == 0) {
            return this;
        }
        SharedObjects target = shared.forAppend(0, size, more.length);
        System.arraycopy(more, 0, target.slots, size, more.length);
        return new AppendOnlyList<>(target, size + more.length);
    }

    @Override
    @SuppressWarnings("unchecked")
    public E get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + " of " + size);
        }
        return (E) shared.slots[index];
    }

    @Override
    public int size() {
        return size;
    }
}
