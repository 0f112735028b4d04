package io.kvledger.containers;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * A first-in first-out queue that is a value yet grows in place: every version is a window {@code [head, end)}
 * over one array shared with the versions it grew from, under the {@link SharedArray} protocol (a version
 * enqueues in place only while no other version has; otherwise, or when the array is full, it copies its own
 * window into a new array, so the array follows the queue's length, not its history). {@link #tail()} is a
 * narrower window over the same array. What a version can see is never written again, so an older version
 * never changes: a copy of a container holding the queue may share it. Its versions grow on one thread.
 *
 * <p>Holds no {@code null}. Prints as the persistent queue it replaced did: {@code Queue(a, b)}.
 */
public final class FifoQueue<E> {

    private static final FifoQueue<?> EMPTY = new FifoQueue<>(SharedObjects.EMPTY, 0, 0);

    private final SharedObjects shared;
    private final int head;
    private final int end;

    private FifoQueue(SharedObjects shared, int head, int end) {
        this.shared = shared;
        this.head = head;
        this.end = end;
    }

    @SuppressWarnings("unchecked")
    public static <E> FifoQueue<E> empty() {
        return (FifoQueue<E>) EMPTY;
    }

    /** The queue of {@code elements}, the first of them at its head. */
    public static <E> FifoQueue<E> ofAll(Iterable<? extends E> elements) {
        List<Object> all = new ArrayList<>();
        for (E element : elements) {
            all.add(Objects.requireNonNull(element, "a queue holds no nulls"));
        }
        return all.isEmpty() ? empty() : new FifoQueue<>(new SharedObjects(all.toArray(), all.size()), 0, all.size());
    }

    public int size() {
        return end - head;
    }

    public boolean isEmpty() {
        return end == head;
    }

    /** This queue with {@code element} at its end; this one is left as it was. */
    public FifoQueue<E> enqueue(E element) {
        Objects.requireNonNull(element, "a queue holds no nulls");
        SharedObjects target = shared.forAppend(head, end, 1);
        int start = SharedArray.start(shared, target, head);
        int size = end - head;
        target.slots[start + size] = element;
        return new FifoQueue<>(target, start, start + size + 1);
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
    public FifoQueue<E> tail() {
        if (isEmpty()) {
            throw new UnsupportedOperationException("tail of an empty queue");
        }
        return new FifoQueue<>(shared, head + 1, end);
    }

    /** The elements, longest enqueued first (a copy). */
    @SuppressWarnings("unchecked")
    public List<E> toJavaList() {
        return (List<E>) Arrays.asList(Arrays.copyOfRange(shared.slots, head, end));
    }

    @Override
    public boolean equals(Object other) {
        return other == this || other instanceof FifoQueue<?> that && toJavaList().equals(that.toJavaList());
    }

    @Override
    public int hashCode() {
        return toJavaList().hashCode();
    }

    /** As the persistent queue it replaced printed: {@code Queue(a, b)}. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("Queue(");
        for (int i = head; i < end; i++) {
            out.append(i == head ? "" : ", ").append(shared.slots[i]);
        }
        return out.append(')').toString();
    }
}
