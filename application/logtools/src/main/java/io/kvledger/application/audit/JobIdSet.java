package io.kvledger.application.audit;

import java.util.Map;
import java.util.TreeMap;

/**
 * A set of job ids kept as ranges. Jobs end roughly in id order, so the ids of every job that ever
 * ended fit in a few ranges however long the log: memory follows the gaps (jobs in flight), not history.
 */
final class JobIdSet {

    private final TreeMap<Long, Long> lastByFirst = new TreeMap<>();

    boolean contains(long id) {
        Map.Entry<Long, Long> range = lastByFirst.floorEntry(id);
        return range != null && id <= range.getValue();
    }

    void add(long id) {
        if (contains(id)) {
            return;
        }
        long first = id;
        long last = id;
        Map.Entry<Long, Long> below = lastByFirst.floorEntry(id);
        if (below != null && below.getValue() == id - 1) {
            first = below.getKey();
        }
        Long aboveLast = lastByFirst.remove(id + 1);
        if (aboveLast != null) {
            last = aboveLast;
        }
        lastByFirst.put(first, last);
    }

    void remove(long id) {
        Map.Entry<Long, Long> range = lastByFirst.floorEntry(id);
        if (range == null || id > range.getValue()) {
            return;
        }
        long first = range.getKey();
        long last = range.getValue();
        lastByFirst.remove(first);
        if (first < id) {
            lastByFirst.put(first, id - 1);
        }
        if (id < last) {
            lastByFirst.put(id + 1, last);
        }
    }

    void clear() {
        lastByFirst.clear();
    }

    int ranges() {
        return lastByFirst.size();
    }
}
