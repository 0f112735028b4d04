package io.kvledger.domain.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vavr.collection.HashMap;
import io.vavr.collection.TreeMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.Test;

/**
 * The maps that change in place are the values Vavr's persistent maps were: over many seeded histories
 * (changes of the newest map mostly, of an older one now and then: a second branch; several changes between
 * reads, so old maps are read far from the newest and merge their undos), every map made so far reads as its
 * Vavr twin: each key's value, size, iteration order of entries, values and keys (key order for the hash map:
 * ids ascending, never a hash order), printed form and equality.
 */
class VersionedMapAgainstPersistentTest {

    private record HashTwin(VersionedHashMap<String, Integer> map, HashMap<String, Integer> reference) {
    }

    private record TreeTwin(VersionedTreeMap<Long, String> map, TreeMap<Long, String> reference) {
    }

    @Test
    void everyVersionOfManySeededHashHistoriesReadsAsVavrsHashMap() {
        int forks = 0;
        for (long seed = 1; seed <= 250; seed++) {
            forks += hashHistory(new Random(seed), 120, 0.1, 40);
        }
        assertTrue(forks > 1000, "changes of an older map: " + forks);
    }

    @Test
    void everyVersionOfManySeededTreeHistoriesReadsAsVavrsTreeMap() {
        int forks = 0;
        for (long seed = 1; seed <= 250; seed++) {
            forks += treeHistory(new Random(seed), 120, 0.1);
        }
        assertTrue(forks > 1000, "changes of an older map: " + forks);
    }

    @Test
    void longLinesReadFarFromTheNewestAndPastTheCopiesOfTheTable() {
        // More than COPY_EVERY changes in place of a small table: old maps are read across the periodic copies.
        for (long seed = 1; seed <= 2; seed++) {
            hashHistory(new Random(seed), 9000, 0.002, 200);
            treeHistory(new Random(seed), 9000, 0.002);
        }
    }

    @Test
    void keysOfEqualHashComeInTheirNaturalOrder() {
        // "Aa" and "BB" hash alike, so do all strings made of them of one length.
        Random random = new Random(3);
        VersionedHashMap<String, Integer> map = VersionedHashMap.empty();
        HashMap<String, Integer> reference = HashMap.empty();
        for (int i = 0; i < 2000; i++) {
            String key = colliding(random);
            if (random.nextInt(3) == 0) {
                map = map.remove(key);
                reference = reference.remove(key);
            } else {
                map = map.put(key, i);
                reference = reference.put(key, i);
            }
            assertEquals(reference.toJavaMap(), new java.util.HashMap<>(map.toJavaMap()));
            List<String> expected = new ArrayList<>(reference.keySet().toJavaList());
            expected.sort(java.util.Comparator.naturalOrder());
            assertEquals(expected, map.keyList());
        }
    }

    @Test
    void aMapReadOnAnotherThreadWhileItsLineChangesReadsAsItWas() throws Exception {
        Random random = new Random(11);
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        BlockingQueue<HashTwin> toRead = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try {
                Random probes = new Random(5);
                for (HashTwin twin = toRead.take(); twin.map() != null; twin = toRead.take()) {
                    same(twin, probes, 60, "read on another thread");
                }
            } catch (Throwable e) {
                failures.add(e);
            }
        });
        reader.start();
        HashTwin newest = new HashTwin(VersionedHashMap.empty(), HashMap.empty());
        for (int i = 0; i < 20000; i++) {
            newest = step(newest, random, 60);
            if (i % 5 == 0) {
                toRead.add(newest);
            }
        }
        toRead.add(new HashTwin(null, null));
        reader.join();
        assertEquals(List.of(), failures);
    }

    /** A history of {@code steps} changes; returns how many changed an older map than the newest. */
    private static int hashHistory(Random random, int steps, double forkChance, int keys) {
        List<HashTwin> made = new ArrayList<>();
        HashTwin newest = new HashTwin(VersionedHashMap.empty(), HashMap.empty());
        made.add(newest);
        int forks = 0;
        for (int i = 0; i < steps; i++) {
            HashTwin from = newest;
            if (random.nextDouble() < forkChance) {
                from = made.get(random.nextInt(made.size()));
                forks += from == newest ? 0 : 1;
            }
            newest = step(from, random, keys);
            made.add(newest);
            if (random.nextInt(steps > 1000 ? 16 : 4) == 0) {
                same(made.get(random.nextInt(made.size())), random, keys, "an old map after " + i + " changes");
            }
        }
        for (HashTwin twin : made.subList(Math.max(0, made.size() - 100), made.size())) {
            same(twin, random, keys, "at the end");
        }
        same(made.get(0), random, keys, "the first");
        same(made.get(made.size() / 2), random, keys, "the middle");
        return forks;
    }

    /** One to twelve changes, as a fold step makes (each a version of its own). */
    private static HashTwin step(HashTwin from, Random random, int keys) {
        VersionedHashMap<String, Integer> map = from.map();
        HashMap<String, Integer> reference = from.reference();
        for (int n = 1 + random.nextInt(random.nextInt(8) == 0 ? 12 : 3); n > 0; n--) {
            String key = "req-" + random.nextInt(keys);
            if (random.nextInt(3) == 0) {
                map = map.remove(key);
                reference = reference.remove(key);
            } else {
                int value = random.nextInt(1000);
                map = map.put(key, value);
                reference = reference.put(key, value);
            }
        }
        return new HashTwin(map, reference);
    }

    private static void same(HashTwin twin, Random random, int keys, String what) {
        VersionedHashMap<String, Integer> map = twin.map();
        HashMap<String, Integer> reference = twin.reference();
        for (int i = 0; i < 6; i++) {
            String key = "req-" + random.nextInt(keys);
            assertEquals(reference.getOrElse(key, null), map.getOrElse(key, null), what + ": " + key);
            assertEquals(reference.containsKey(key), map.containsKey(key), what + ": " + key);
        }
        assertEquals(reference.getOrElse(null, -1), map.getOrElse(null, -1), what + ": no null key");
        assertEquals(reference.size(), map.size(), what);
        assertEquals(reference.isEmpty(), map.isEmpty(), what);
        // Iterated and printed in key order (ids ascending), whatever the hash order.
        TreeMap<String, Integer> sorted = TreeMap.ofEntries(reference);
        assertEquals(sorted.keySet().toJavaList(), map.keyList(), what + ": order");
        assertEquals(sorted.values().toJavaList(), map.values().toJavaList(), what + ": values");
        assertEquals(sorted.keySet().toJavaList(), map.keySet().toJavaList(), what);
        assertEquals(sorted.toString().replaceFirst("^TreeMap", "HashMap"), map.toString(), what);
        assertEquals(VersionedHashMap.ofEntries(reference.toJavaMap().entrySet()), map, what + ": equality");
    }

    private static int treeHistory(Random random, int steps, double forkChance) {
        List<TreeTwin> made = new ArrayList<>();
        TreeTwin newest = new TreeTwin(VersionedTreeMap.empty(), TreeMap.empty());
        made.add(newest);
        int forks = 0;
        long next = 0;
        for (int i = 0; i < steps; i++) {
            TreeTwin from = newest;
            if (random.nextDouble() < forkChance) {
                from = made.get(random.nextInt(made.size()));
                forks += from == newest ? 0 : 1;
            }
            VersionedTreeMap<Long, String> map = from.map();
            TreeMap<Long, String> reference = from.reference();
            for (int n = 1 + random.nextInt(3); n > 0; n--) {
                // Jobs: new ids mostly at the end, completions of any held one, now and then an old id again.
                long id = random.nextInt(3) == 0 ? next++ : Math.max(0, next - 1 - random.nextInt(30));
                if (random.nextInt(2) == 0) {
                    map = map.remove(id);
                    reference = reference.remove(id);
                } else {
                    String value = "job-" + random.nextInt(100);
                    map = map.put(id, value);
                    reference = reference.put(id, value);
                }
            }
            newest = new TreeTwin(map, reference);
            made.add(newest);
            if (random.nextInt(steps > 1000 ? 16 : 4) == 0) {
                same(made.get(random.nextInt(made.size())), random, next, "an old map after " + i + " changes");
            }
        }
        for (TreeTwin twin : made.subList(Math.max(0, made.size() - 100), made.size())) {
            same(twin, random, next, "at the end");
        }
        same(made.get(0), random, next, "the first");
        return forks;
    }

    private static void same(TreeTwin twin, Random random, long ids, String what) {
        VersionedTreeMap<Long, String> map = twin.map();
        TreeMap<Long, String> reference = twin.reference();
        for (int i = 0; i < 6; i++) {
            long id = ids == 0 ? 0 : random.nextInt((int) ids + 1);
            assertEquals(reference.getOrElse(id, null), map.getOrElse(id, null), what + ": " + id);
            assertEquals(reference.containsKey(id), map.containsKey(id), what + ": " + id);
        }
        assertEquals(reference.size(), map.size(), what);
        assertEquals(reference.keySet(), map.keySet(), what);
        assertEquals(reference.keySet().toJavaList(), map.keyList(), what + ": order");
        assertEquals(reference.values().toJavaList(), map.values().toJavaList(), what + ": values");
        assertEquals(reference.toString(), map.toString(), what);
        assertEquals(reference.toJavaMap(), map.toJavaMap(), what);
    }

    private static String colliding(Random random) {
        StringBuilder key = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            key.append(random.nextBoolean() ? "Aa" : "BB");
        }
        return key.append(random.nextInt(3)).toString();
    }
}
