package io.kvledger.domain.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.vavr.collection.TreeSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A request's job ids as a sorted array are the value the Vavr {@code TreeSet<Long>} they replace was: over
 * many seeded histories of adds and removes (of ids held and not held, of old versions too), every version
 * reads as its twin: size, emptiness, membership, the ascending order, equality and the unchanged set
 * returned when nothing changes.
 */
class JobIdsAgainstTreeSetTest {

    private record Twin(JobIds ids, TreeSet<Long> reference) {
    }

    @Test
    void everyVersionOfManySeededHistoriesReadsAsTheTreeSet() {
        for (long seed = 1; seed <= 1000; seed++) {
            Random random = new Random(seed);
            List<Twin> made = new ArrayList<>();
            Twin newest = new Twin(JobIds.EMPTY, TreeSet.empty());
            made.add(newest);
            for (int step = 0; step < 60; step++) {
                Twin from = random.nextInt(10) == 0 ? made.get(random.nextInt(made.size())) : newest;
                long id = random.nextInt(5) == 0 ? random.nextLong() : random.nextInt(12);
                if (random.nextInt(3) == 0) {
                    JobIds removed = from.ids().remove(id);
                    if (!from.reference().contains(id)) {
                        assertSame(from.ids(), removed, "removing an id it lacks");
                    }
                    newest = new Twin(removed, from.reference().remove(id));
                } else {
                    JobIds added = from.ids().add(id);
                    if (from.reference().contains(id)) {
                        assertSame(from.ids(), added, "adding an id it holds");
                    }
                    newest = new Twin(added, from.reference().add(id));
                }
                made.add(newest);
            }
            for (Twin twin : made) {
                same(twin, random);
            }
        }
    }

    private static void same(Twin twin, Random random) {
        JobIds ids = twin.ids();
        TreeSet<Long> reference = twin.reference();
        java.util.function.Supplier<String> where = () -> ids + " against " + reference;
        assertEquals(reference.size(), ids.size(), where);
        assertEquals(reference.isEmpty(), ids.isEmpty(), where);
        assertEquals(reference.toJavaList(), ids.toJavaList(), where);
        assertEquals(reference.toString(), ids.toString(), "the state's text");
        assertEquals(reference.toJavaList(), ids.toJavaStream().toList(), where);
        List<Long> iterated = new ArrayList<>();
        for (long id : ids) {
            iterated.add(id);
        }
        assertEquals(reference.toJavaList(), iterated, where);
        for (int i = 0; i < ids.size(); i++) {
            assertEquals(reference.toJavaList().get(i), ids.get(i), where);
        }
        JobIds rebuilt = JobIds.of(reference);
        assertEquals(rebuilt, ids, where);
        assertEquals(rebuilt.hashCode(), ids.hashCode(), where);
        for (int k = 0; k < 6; k++) {
            long probe = random.nextInt(14);
            assertEquals(reference.contains(probe), ids.contains(probe), () -> where.get() + " contains " + probe);
        }
    }
}
