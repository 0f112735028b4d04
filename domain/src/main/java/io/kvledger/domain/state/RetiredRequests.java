package io.kvledger.domain.state;

import io.kvledger.containers.FifoQueue;
import io.kvledger.containers.StateHashMap;
import java.util.function.BiConsumer;

/**
 * The final status of settled terminated requests (no blocks, no jobs), so that a late command for
 * one is {@code REQUEST_TERMINATED} and registering its id again is {@code DUPLICATE_REQUEST}, kept
 * for the {@code capacity} requests retired last. When one more retires, the one retired longest ago
 * is forgotten: a command for it is then {@code UNKNOWN_REQUEST} and its id may be registered
 * again. So memory is bounded however many requests pass, at the price of not recognising an id that
 * comes back after {@code capacity} later requests have ended.
 *
 * <p>The statuses change in place ({@link StateHashMap}, as every map of the state); the order is a
 * {@link FifoQueue}, a value that grows in place, which a {@link #copy()} shares. Both print and snapshot as the
 * persistent map and queue they replaced did.
 *
 * @param statuses  request id to final status
 * @param order     the same ids, retired longest ago first
 * @param forgotten how many ids have been forgotten so far
 */
public record RetiredRequests(int capacity, StateHashMap<String, RequestStatus> statuses, FifoQueue<String> order,
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
        return new RetiredRequests(capacity, StateHashMap.empty(), FifoQueue.empty(), 0);
    }

    /** Remembers {@code requestId} as retired with {@code status}, forgetting the oldest beyond the capacity. */
    public RetiredRequests retire(String requestId, RequestStatus status) {
        FifoQueue<String> nextOrder = statuses.containsKey(requestId) ? order : order.enqueue(requestId);
        StateHashMap<String, RequestStatus> nextStatuses = statuses.put(requestId, status);
        long nextForgotten = forgotten;
        while (nextOrder.size() > capacity) {
            String oldest = nextOrder.head();
            nextOrder = nextOrder.tail();
            nextStatuses = nextStatuses.remove(oldest);
            nextForgotten++;
        }
        return new RetiredRequests(capacity, nextStatuses, nextOrder, nextForgotten);
    }

    /** The same requests remembered in a map of its own: retiring into either leaves the other as it was. */
    public RetiredRequests copy() {
        return new RetiredRequests(capacity, statuses.copy(), order, forgotten);
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
