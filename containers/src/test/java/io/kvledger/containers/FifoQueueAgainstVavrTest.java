package io.kvledger.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vavr.collection.Queue;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The queue that grows in place is the value Vavr's persistent {@code Queue} it replaced was: over many seeded
 * histories (changes of the newest version mostly, of an older one now and then: a second branch enqueuing past
 * the same array's claimed end), every version made so far reads as its twin: size, head, the elements in order,
 * equality, hash code and printed form.
 */
class FifoQueueAgainstVavrTest {

    private record Twin(FifoQueue<String> queue, Queue<String> reference) {
    }

    @Test
    void everyVersionOfManySeededHistoriesReadsAsVavrsQueue() {
        int forks = 0;
        for (long seed = 1; seed <= 500; seed++) {
            Random random = new Random(seed);
            List<Twin> made = new ArrayList<>();
            Twin newest = new Twin(FifoQueue.empty(), Queue.empty());
            made.add(newest);
            for (int step = 0; step < 120; step++) {
                Twin from = newest;
                if (random.nextInt(8) == 0) {
                    from = made.get(random.nextInt(made.size()));
                    forks++;
                }
                if (random.nextInt(3) == 0 && !from.reference().isEmpty()) {
                    newest = new Twin(from.queue().tail(), from.reference().tail());
                } else {
                    String element = "r" + random.nextInt(50);
                    newest = new Twin(from.queue().enqueue(element), from.reference().enqueue(element));
                }
                made.add(newest);
            }
            for (Twin twin : made) {
                same(twin);
            }
        }
        assertTrue(forks > 5000, "changes of an older queue: " + forks);
    }

    @Test
    void anEmptyQueueHasNoHeadAndNoTail() {
        assertThrows(NoSuchElementException.class, () -> FifoQueue.empty().head());
        assertThrows(UnsupportedOperationException.class, () -> FifoQueue.empty().tail());
        assertThrows(NullPointerException.class, () -> FifoQueue.<String>empty().enqueue(null));
        assertEquals(FifoQueue.ofAll(List.of("a", "b")), FifoQueue.<String>empty().enqueue("a").enqueue("b"));
        assertEquals("Queue(a, b)", FifoQueue.ofAll(List.of("a", "b")).toString());
    }

    private static void same(Twin twin) {
        FifoQueue<String> queue = twin.queue();
        Queue<String> reference = twin.reference();
        assertEquals(reference.size(), queue.size());
        assertEquals(reference.isEmpty(), queue.isEmpty());
        assertEquals(reference.toJavaList(), queue.toJavaList());
        assertEquals(reference.toString(), queue.toString(), "the printed form");
        if (!reference.isEmpty()) {
            assertEquals(reference.head(), queue.head());
        }
        FifoQueue<String> rebuilt = FifoQueue.ofAll(reference);
        assertEquals(rebuilt, queue);
        assertEquals(rebuilt.hashCode(), queue.hashCode());
    }
}
