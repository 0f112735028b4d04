package io.kvledger.domain.state;

import io.kvledger.containers.OpenHashTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * The final status of settled terminated requests (no blocks, no jobs), so that a late command for
 * one is {@code REQUEST_TERMINATED} and registering its id again is {@code DUPLICATE_REQUEST}, kept
 * for the {@code capacity} requests retired last. When one more retires, the one retired longest ago
 * is forgotten: a command for it is then {@code UNKNOWN_REQUEST} and its id may be registered
 * again. So memory is bounded however many requests pass, at the price of not recognising an id that
 * comes back after {@code capacity} later requests have ended.
 *
 * <p>Changed in place by the fold ({@link #retire}), as the rest of the state. Held in flat arrays (an
 * {@link OpenHashTable} of ids and statuses, and the ids in a ring, retired longest ago first), so that
 * {@link #copy()} is three array copies: the audit copies the whole state every few thousand events
 * ({@code Lookback}), and a hash map of 65,536 retired ids copied entry by entry was a fifth of its thread.
 * Prints and snapshots as the map (ids ascending) and queue it was.
 */
public final class RetiredRequests {

    /** Requests remembered after they retire: about 8 MB of ids and statuses for typical ids. */
    public static final int CAPACITY = 65_536;

    private static final int FIRST_SLOTS = 16;

    private final int capacity;
    private final OpenHashTable<String, RequestStatus> statuses;
    /** The same ids, retired longest ago first, from {@code head}, wrapping; as many as {@code statuses} holds. */
    private String[] ring;
    private int head;
    private long forgotten;

    private RetiredRequests(int capacity, OpenHashTable<String, RequestStatus> statuses, String[] ring, int head,
                            long forgotten) {
        this.capacity = capacity;
        this.statuses = statuses;
        this.ring = ring;
        this.head = head;
        this.forgotten = forgotten;
    }

    public static RetiredRequests empty() {
        return empty(CAPACITY);
    }

    public static RetiredRequests empty(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, was " + capacity);
        }
        return new RetiredRequests(capacity, new OpenHashTable<>(), new String[Math.min(capacity, FIRST_SLOTS)], 0, 0);
    }

    /**
     * Retired requests as a snapshot holds them: each id's status, and the ids retired longest ago first (the
     * same ids, each once).
     *
     * @throws IllegalArgumentException when the two disagree or hold more than {@code capacity}
     */
    public static RetiredRequests of(int capacity, List<String> oldestFirst, java.util.Map<String, RequestStatus> statuses,
                                     long forgotten) {
        RetiredRequests retired = empty(capacity);
        if (oldestFirst.size() > capacity || oldestFirst.size() != statuses.size()) {
            throw new IllegalArgumentException("retired requests: " + oldestFirst.size() + " ids in order and "
                    + statuses.size() + " statuses, capacity " + capacity);
        }
        for (String id : oldestFirst) {
            RequestStatus status = statuses.get(id);
            if (status == null || retired.containsKey(id)) {
                throw new IllegalArgumentException("retired requests: id " + id + " is "
                        + (status == null ? "in the order without a status" : "twice in the order"));
            }
            retired.retire(id, status);
        }
        retired.forgotten = forgotten;
        return retired;
    }

    /** Remembers {@code requestId} as retired with {@code status}, forgetting the oldest beyond the capacity; returns this. */
    public RetiredRequests retire(String requestId, RequestStatus status) {
        Objects.requireNonNull(status, "status");
        if (statuses.containsKey(requestId)) {
            statuses.put(requestId, status);   // already remembered: a new status, the same place in the order
            return this;
        }
        if (statuses.size() == capacity) {
            String oldest = ring[head];
            ring[head] = null;
            head = head + 1 == ring.length ? 0 : head + 1;
            statuses.remove(oldest);
            forgotten++;
        }
        if (statuses.size() == ring.length) {
            growRing();
        }
        statuses.put(requestId, status);
        ring[ringSlot(statuses.size() - 1)] = requestId;
        return this;
    }

    /** The same requests remembered in arrays of their own: retiring into either leaves the other as it was. */
    public RetiredRequests copy() {
        return new RetiredRequests(capacity, new OpenHashTable<>(statuses), ring.clone(), head, forgotten);
    }

    public int capacity() {
        return capacity;
    }

    /** How many ids have been forgotten so far. */
    public long forgotten() {
        return forgotten;
    }

    /** The final status of a remembered retired request, or {@code other}. */
    public RequestStatus getOrElse(String requestId, RequestStatus other) {
        RequestStatus status = statuses.get(requestId);
        return status != null ? status : other;
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

    /** How many remembered requests ended with {@code status}. */
    public int count(RequestStatus status) {
        int n = 0;
        for (RequestStatus held : statuses.values()) {
            if (held == status) {
                n++;
            }
        }
        return n;
    }

    /** The remembered ids, retired longest ago first. */
    public List<String> oldestFirst() {
        List<String> ids = new ArrayList<>(statuses.size());
        for (int i = 0; i < statuses.size(); i++) {
            ids.add(ring[ringSlot(i)]);
        }
        return ids;
    }

    /** Every remembered id with its status, ids ascending. */
    public void forEach(BiConsumer<String, RequestStatus> action) {
        String[] ids = statuses.keySet().toArray(new String[0]);
        Arrays.sort(ids);
        for (String id : ids) {
            action.accept(id, getOrElse(id, null));
        }
    }

    @Override
    public boolean equals(Object other) {
        if (other == this) {
            return true;
        }
        if (!(other instanceof RetiredRequests that) || capacity != that.capacity || size() != that.size()
                || forgotten != that.forgotten || !oldestFirst().equals(that.oldestFirst())) {
            return false;
        }
        return statuses.equals(that.statuses);
    }

    @Override
    public int hashCode() {
        return Objects.hash(capacity, oldestFirst(), forgotten);
    }

    /** As the record of a Vavr map and queue printed: {@code RetiredRequests[capacity=3, statuses=HashMap((a, ABORTED)), order=Queue(a), forgotten=0]}. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("RetiredRequests[capacity=").append(capacity).append(", statuses=HashMap(");
        String[] separator = {""};
        forEach((id, status) -> {
            out.append(separator[0]).append('(').append(id).append(", ").append(status).append(')');
            separator[0] = ", ";
        });
        out.append("), order=Queue(").append(String.join(", ", oldestFirst()));
        return out.append("), forgotten=").append(forgotten).append(']').toString();
    }

    /** Where the {@code i}-th id retired longest ago is in the ring. */
    private int ringSlot(int i) {
        int at = head + i;
        return at >= ring.length ? at - ring.length : at;
    }

    private void growRing() {
        String[] grown = new String[(int) Math.min(capacity, 2L * ring.length)];
        for (int i = 0; i < statuses.size(); i++) {
            grown[i] = ring[ringSlot(i)];
        }
        ring = grown;
        head = 0;
    }
}
