package io.kvledger.domain.state;

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
 * <p>Changed in place by the fold ({@link #retire}), as the rest of the state. Held in three flat arrays
 * (an open-addressing table of ids and statuses, and the ids in a ring, retired longest ago first), so that
 * {@link #copy()} is three array copies: the audit copies the whole state every few thousand events
 * ({@code Lookback}), and a hash map of 65,536 retired ids copied entry by entry was a fifth of its thread.
 * Prints and snapshots as the map (ids ascending) and queue it was.
 */
public final class RetiredRequests {

    /** Requests remembered after they retire: about 8 MB of ids and statuses for typical ids. */
    public static final int CAPACITY = 65_536;

    private static final int FIRST_SLOTS = 16;

    private final int capacity;
    /** Open addressing, linear probing; a {@code null} key is a free slot. Length a power of two, filled to three quarters at most. */
    private String[] keys;
    private RequestStatus[] statuses;
    /** The ids retired longest ago first, from {@code head}, wrapping. */
    private String[] ring;
    private int head;
    private int count;
    private long forgotten;

    private RetiredRequests(int capacity, String[] keys, RequestStatus[] statuses, String[] ring, int head, int count,
                            long forgotten) {
        this.capacity = capacity;
        this.keys = keys;
        this.statuses = statuses;
        this.ring = ring;
        this.head = head;
        this.count = count;
        this.forgotten = forgotten;
    }

    public static RetiredRequests empty() {
        return empty(CAPACITY);
    }

    public static RetiredRequests empty(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1, was " + capacity);
        }
        return new RetiredRequests(capacity, new String[FIRST_SLOTS], new RequestStatus[FIRST_SLOTS],
                new String[Math.min(capacity, FIRST_SLOTS)], 0, 0, 0);
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
        int slot = slotOf(requestId);
        if (keys[slot] != null) {
            statuses[slot] = status;   // already remembered: a new status, the same place in the order
            return this;
        }
        if (count == capacity) {
            String oldest = ring[head];
            ring[head] = null;
            head = head + 1 == ring.length ? 0 : head + 1;
            count--;
            delete(slotOf(oldest));
            forgotten++;
        }
        if (count == ring.length) {
            growRing();
        }
        if (4L * (count + 1) > 3L * keys.length) {
            growTable();
        }
        slot = slotOf(requestId);
        keys[slot] = requestId;
        statuses[slot] = status;
        int tail = head + count;
        ring[tail >= ring.length ? tail - ring.length : tail] = requestId;
        count++;
        return this;
    }

    /** The same requests remembered in arrays of their own: retiring into either leaves the other as it was. */
    public RetiredRequests copy() {
        return new RetiredRequests(capacity, keys.clone(), statuses.clone(), ring.clone(), head, count, forgotten);
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
        int slot = slotOf(requestId);
        return keys[slot] != null ? statuses[slot] : other;
    }

    public boolean containsKey(String requestId) {
        return keys[slotOf(requestId)] != null;
    }

    public int size() {
        return count;
    }

    public boolean isEmpty() {
        return count == 0;
    }

    /** How many remembered requests ended with {@code status}. */
    public int count(RequestStatus status) {
        int n = 0;
        for (RequestStatus held : statuses) {
            if (held == status) {
                n++;
            }
        }
        return n;
    }

    /** The remembered ids, retired longest ago first. */
    public List<String> oldestFirst() {
        List<String> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int at = head + i;
            ids.add(ring[at >= ring.length ? at - ring.length : at]);
        }
        return ids;
    }

    /** Every remembered id with its status, ids ascending. */
    public void forEach(BiConsumer<String, RequestStatus> action) {
        String[] ids = new String[count];
        int n = 0;
        for (String key : keys) {
            if (key != null) {
                ids[n++] = key;
            }
        }
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
        if (!(other instanceof RetiredRequests that) || capacity != that.capacity || count != that.count
                || forgotten != that.forgotten || !oldestFirst().equals(that.oldestFirst())) {
            return false;
        }
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null && statuses[i] != that.getOrElse(keys[i], null)) {
                return false;
            }
        }
        return true;
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

    /** The slot holding {@code id}, or the free slot where it would go. */
    private int slotOf(String id) {
        int mask = keys.length - 1;
        int slot = home(id, mask);
        while (keys[slot] != null && !keys[slot].equals(id)) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    /**
     * Where {@code id}'s probe starts. Ids are often a prefix and a counter ("r1041"), whose string hashes are
     * consecutive: taken as they are, they fill a run of slots, and a look-up of an id not held that starts inside
     * the run walks to its end. Multiplying by the golden ratio spreads them over the table.
     */
    private static int home(String id, int mask) {
        int h = id.hashCode() * 0x9E3779B9;
        return (h ^ (h >>> 16)) & mask;
    }

    /** Frees {@code slot}, moving later keys of its probe run back so that every key stays reachable. */
    private void delete(int slot) {
        int mask = keys.length - 1;
        int free = slot;
        for (int next = (free + 1) & mask; keys[next] != null; next = (next + 1) & mask) {
            int home = home(keys[next], mask);
            // The key at next may move to free when its home is not cyclically within (free, next].
            if (((next - home) & mask) >= ((next - free) & mask)) {
                keys[free] = keys[next];
                statuses[free] = statuses[next];
                free = next;
            }
        }
        keys[free] = null;
        statuses[free] = null;
    }

    private void growRing() {
        String[] grown = new String[(int) Math.min(capacity, 2L * ring.length)];
        for (int i = 0; i < count; i++) {
            int at = head + i;
            grown[i] = ring[at >= ring.length ? at - ring.length : at];
        }
        ring = grown;
        head = 0;
    }

    private void growTable() {
        String[] oldKeys = keys;
        RequestStatus[] oldStatuses = statuses;
        keys = new String[oldKeys.length * 2];
        statuses = new RequestStatus[oldKeys.length * 2];
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != null) {
                int slot = slotOf(oldKeys[i]);
                keys[slot] = oldKeys[i];
                statuses[slot] = oldStatuses[i];
            }
        }
    }
}
