package io.kvledger.domain.state;

import java.util.function.BiConsumer;

/**
 * The final status of settled terminated requests (no blocks, no jobs), so that a late command for
 * one is {@code REQUEST_TERMINATED} and registering its id again is {@code DUPLICATE_REQUEST}, kept
 * for the {@code capacity} requests retired last. When one more retires, the one retired longest ago
 * is forgotten: a command for it is then {@code UNKNOWN_REQUEST} and its id may be registered
 * again. So memory is bounded however many requests pass, at the price of not recognising an id that
 * comes back after {@code capacity} later requests have ended.
 *
 * <p>Both change in place on the forward path and keep older versions readable ({@link VersionedHashMap},
 * {@link VersionedQueue}), and print and snapshot as the Vavr map and queue they were.
 *
 * @param statuses  request id to final status
 * @param order     the same ids, retired longest ago first
 * @param forgotten how many ids have been forgotten so far
 */
public record RetiredRequests(int capacity, VersionedHashMap<String, RequestStatus> statuses, VersionedQueue<String> order,
                              long forgotten) {

    /** Requests remembered after they retire: about 8 MB of ids and statuses for typical ids. */
    public static final int CAPACITY = 65_536;

    public RetiredRequests {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, was " + capacity);
        }
    }

    public static RetiredRequests empty() {
        return empty(CAPACITY);
    }

    public static RetiredRequests empty(int capacity) {
        return new RetiredRequests(capacity, VersionedHashMap.empty(), VersionedQueue.empty(), 0);
    }

    /** Remembers {@code requestId} as retired with {@code status}, forgetting the oldest beyond the capacity. */
    public RetiredRequests retire(String requestId, RequestStatus status) {
        VersionedQueue<String> nextOrder = statuses.containsKey(requestId) ? order : order.enqueue(requestId);
        VersionedHashMap<String, RequestStatus> nextStatuses = statuses.put(requestId, status);
        long nextForgotten = forgotten;
        while (nextOrder.size() > capacity) {
            String oldest = nextOrder.head();
            nextOrder = nextOrder.tail();
            nextStatuses = nextStatuses.remove(oldest);
            nextForgotten++;
        }
        return new RetiredRequests(capacity, nextStatuses, nextOrder, nextForgotten);
    }

    /** The final status of a remembered retired request, or {@code other}. */
    public RequestStatus getOrElse(String requestId, RequestStatus other) {
        return statuses.getOrElse(requestId, other);
    }

    public boolean containsKey(String requestId) {
        return statuses.containsKey(requestId);
    }

    public int size() {
        return statuses.size();
    }

    public boolean isEmpty() {
        return statuses.isEmpty();
    }

    /** Every remembered id with its status. */
    public void forEach(BiConsumer<String, RequestStatus> action) {
        statuses.forEach(action);
    }
}
