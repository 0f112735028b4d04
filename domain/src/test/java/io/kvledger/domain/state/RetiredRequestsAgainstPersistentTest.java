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
 * The retired requests that change in place (a table of statuses and a ring of ids, in flat arrays) are the
 * value the record of Vavr's map and queue was: over seeded histories, each line of changes
 * gives each id's status, the size, the count forgotten, the order and the printed form of its persistent twin
 * (the former {@code retire}, kept here). Now and then a line is {@linkplain RetiredRequests#copy() copied} and
 * both go on retiring apart, each still reading as its own twin.
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

    /** One line of changes: the retired requests and their persistent twin. */
    private static final class Twin {
        RetiredRequests retired;
        Persistent reference;

        Twin(RetiredRequests retired, Persistent reference) {
            this.retired = retired;
            this.reference = reference;
        }
    }

    @Test
    void manySeededHistoriesAndTheirCopiesReadAsThePersistentRecord() {
        int copies = 0;
        for (long seed = 1; seed <= 200; seed++) {
            Random random = new Random(seed);
            int capacity = 1 + random.nextInt(seed % 4 == 0 ? 200 : 12);
            List<Twin> lines = new ArrayList<>();
            lines.add(new Twin(RetiredRequests.empty(capacity), new Persistent(capacity, HashMap.empty(), Queue.empty(), 0)));
            for (int i = 0; i < 600; i++) {
                Twin line = lines.get(random.nextInt(3) == 0 ? random.nextInt(lines.size()) : lines.size() - 1);
                if (random.nextInt(40) == 0) {
                    lines.add(new Twin(line.retired.copy(), line.reference));
                    copies++;
                }
                String id = "r" + random.nextInt(3 * capacity + 5);
                RequestStatus status = random.nextBoolean() ? RequestStatus.FINISHED : RequestStatus.ABORTED;
                line.retired = line.retired.retire(id, status);
                line.reference = line.reference.retire(id, status);
                if (random.nextInt(3) == 0) {
                    same(lines.get(random.nextInt(lines.size())), random, capacity);
                }
            }
            for (Twin line : lines) {
                same(line, random, capacity);
            }
        }
        assertTrue(copies > 1000, "copies: " + copies);
    }

    private static void same(Twin twin, Random random, int capacity) {
        RetiredRequests retired = twin.retired;
        Persistent reference = twin.reference;
        for (int n = 0; n < 3 * capacity + 5; n++) {
            String id = "r" + n;
            assertEquals(reference.statuses().getOrElse(id, null), retired.getOrElse(id, null), id);
            assertEquals(reference.statuses().containsKey(id), retired.containsKey(id), id);
        }
        assertEquals(reference.statuses().size(), retired.size());
        assertEquals(reference.forgotten(), retired.forgotten());
        assertEquals(reference.order().toJavaList(), retired.oldestFirst());
        assertEquals(reference.statuses().count(entry -> entry._2 == RequestStatus.ABORTED), retired.count(RequestStatus.ABORTED));
        assertEquals(reference.toString(), retired.toString());
    }
}
