package io.kvledger.domain.state;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * A first-in first-out queue that is a value yet grows in place: every version is a window {@code [head, end)}
 * over one array shared with the versions it grew from. A version may write past its end in place only while
 * no other version has (it is the newest holding the array); otherwise, or when the array is full, it copies
 * its own window into a new array twice its length, so the array follows the queue's length, not its history.
 * What a version can see is never written again, so old versions never change. The claim takes no lock: the
 * versions of one array grow on one thread.
 */
public final class VersionedQueue<E> {

    /** The array and how much of it some version has claimed; a version appends in place only where it ends at the claim. */
    private static final class Shared {
        private final Object[] slots;
        private int claimed;

        private Shared(Object[] slots, int claimed) {
            this.slots = slots;
            this.claimed = claimed;
        }
    }

    private final Shared shared;
    private final int head;
    private final int end;

    private VersionedQueue(Shared shared, int head, int end) {
        this.shared = shared;
        this.head = head;
        this.end = end;
    }

    public static <E> VersionedQueue<E> empty() {
        return new VersionedQueue<>(new Shared(new Object[0], 0), 0, 0);
    }

    public static <E> VersionedQueue<E> ofAll(Iterable<? extends E> elements) {
        List<Object> all = new ArrayList<>();
        for (E element : elements) {
            all.add(java.util.Objects.requireNonNull(element, "a queue holds no nulls"));
        }
        return new VersionedQueue<>(new Shared(all.toArray(), all.size()), 0, all.size());
    }

    public int size() {
        return end - head;
    }

    public boolean isEmpty() {
        return end == head;
    }

    /** This queue with {@code element} at its end; this one is left as it was. */
    public VersionedQueue<E> enqueue(E element) {
        java.util.Objects.requireNonNull(element, "a queue holds no nulls");
        if (shared.claimed == end && end < shared.slots.length) {
            shared.slots[end] = element;
            shared.claimed = end + 1;
            return new VersionedQueue<>(shared, head, end + 1);
        }
        int size = size();
        Object[] slots = new Object[Math.max(4, 2 * (size + 1))];
        System.arraycopy(shared.slots, head, slots, 0, size);
        slots[size] = element;
        return new VersionedQueue<>(new Shared(slots, size + 1), 0, size + 1);
    }

    /** The element enqueued longest ago. */
    @SuppressWarnings("unchecked")
    public E head() {
        if (isEmpty()) {
            throw new NoSuchElementException("head of an empty queue");
        }
        return (E) shared.slots[head];
    }

    /** This queue without its head; this one is left as it was. */
    public VersionedQueue<E> tail() {
        if (isEmpty()) {
            throw new UnsupportedOperationException("tail of an empty queue");
        }
        return new VersionedQueue<>(shared, head + 1, end);
    }

    /** The elements, longest enqueued first (a copy). */
    @SuppressWarnings("unchecked")
    public List<E> toJavaList() {
        return (List<E>) Arrays.asList(Arrays.copyOfRange(shared.slots, head, end));
    }

    @Override
    public boolean equals(Object other) {
        return other == this || other instanceof VersionedQueue<?> that && toJavaList().equals(that.toJavaList());
    }

    @Override
    public int hashCode() {
        return toJavaList().hashCode();
    }

    /** As Vavr's queue prints: {@code Queue(a, b)}. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("Queue(");
        for (int i = head; i < end; i++) {
            out.append(i == head ? "" : ", ").append(shared.slots[i]);
        }
        return out.append(')').toString();
    }
}
