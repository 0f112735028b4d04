package io.kvledger.domain.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vavr.collection.HashMap;
import io.vavr.collection.Queue;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The retired requests that change in place (a {@link VersionedHashMap} of statuses and a {@link VersionedQueue}
 * of ids) are the value the record of Vavr's map and queue was: over seeded histories with branches, every
 * version made so far gives each id's status, the size, the count forgotten, the order and the printed form of
 * its persistent twin (the former {@code retire}, kept here).
 */
class RetiredRequestsAgainstPersistentTest {

    /** The former retired requests, on Vavr's persistent map and queue. */
    private record Persistent(int capacity, HashMap<String, RequestStatus> statuses, Queue<String> order, long forgotten) {

        Persistent retire(String requestId, RequestStatus status) {
            HashMap<String, RequestStatus> nextStatuses = statuses.put(requestId, status);
            Queue<String> nextOrder = statuses.containsKey(requestId) ? order : order.enqueue(requestId);
            long nextForgotten = forgotten;
            while (nextOrder.size() > capacity) {
                String oldest = nextOrder.head();
                nextOrder = nextOrder.tail();
                nextStatuses = nextStatuses.remove(oldest);
                nextForgotten++;
            }
            return new Persistent(capacity, nextStatuses, nextOrder, nextForgotten);
        }

        @Override
        public String toString() {
            // The statuses print in key order (ids ascending), as the map iterates.
            String sortedStatuses = io.vavr.collection.TreeMap.ofEntries(statuses).toString().replaceFirst("^TreeMap", "HashMap");
            return "RetiredRequests[capacity=" + capacity + ", statuses=" + sortedStatuses + ", order=" + order
                    + ", forgotten=" + forgotten + "]";
        }
    }

    private record Twin(RetiredRequests retired, Persistent reference) {
    }

    @Test
    void everyVersionOfManySeededHistoriesReadsAsThePersistentRecord() {
        int forks = 0;
        for (long seed = 1; seed <= 200; seed++) {
            Random random = new Random(seed);
            int capacity = 1 + random.nextInt(seed % 4 == 0 ? 200 : 12);
            List<Twin> made = new ArrayList<>();
            Twin newest = new Twin(RetiredRequests.empty(capacity),
                    new Persistent(capacity, HashMap.empty(), Queue.empty(), 0));
            made.add(newest);
            for (int i = 0; i < 600; i++) {
                Twin from = newest;
                if (random.nextInt(12) == 0) {
                    from = made.get(random.nextInt(made.size()));
                    forks += from == newest ? 0 : 1;
                }
                String id = "r" + random.nextInt(3 * capacity + 5);
                RequestStatus status = random.nextBoolean() ? RequestStatus.FINISHED : RequestStatus.ABORTED;
                newest = new Twin(from.retired().retire(id, status), from.reference().retire(id, status));
                made.add(newest);
                if (random.nextInt(3) == 0) {
                    same(made.get(random.nextInt(made.size())), random, capacity);
                }
            }
            for (Twin twin : made) {
                same(twin, random, capacity);
            }
        }
        assertTrue(forks > 1000, "changes of an older version: " + forks);
    }

    private static void same(Twin twin, Random random, int capacity) {
        RetiredRequests retired = twin.retired();
        Persistent reference = twin.reference();
        for (int i = 0; i < 4; i++) {
            String id = "r" + random.nextInt(3 * capacity + 5);
            assertEquals(reference.statuses().getOrElse(id, null), retired.getOrElse(id, null), id);
            assertEquals(reference.statuses().containsKey(id), retired.containsKey(id), id);
        }
        assertEquals(reference.statuses().size(), retired.size());
        assertEquals(reference.forgotten(), retired.forgotten());
        assertEquals(reference.order().toJavaList(), retired.order().toJavaList());
        assertEquals(reference.order().size(), retired.order().size());
        assertEquals(reference.toString(), retired.toString());
    }
}
