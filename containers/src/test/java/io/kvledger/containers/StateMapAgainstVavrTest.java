package io.kvledger.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vavr.collection.HashMap;
import io.vavr.collection.TreeMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The maps the fold changes in place read as Vavr's persistent maps, the values they replaced: over many seeded
 * histories, each map reads as its Vavr twin after every few changes: each key's value, size, iteration order of
 * entries, values and keys (key order for the hash map: ids ascending, never a hash order), printed form and
 * equality. Now and then a line is {@linkplain StateMap#copy() copied} and both go on changing apart: each
 * still reads as its own twin, so a copy shares nothing that changes.
 */
class StateMapAgainstVavrTest {

    /** One line of changes: the map changed in place and its persistent twin. */
    private static final class HashLine {
        StateHashMap<String, Integer> map;
        HashMap<String, Integer> reference;

        HashLine(StateHashMap<String, Integer> map, HashMap<String, Integer> reference) {
            this.map = map;
            this.reference = reference;
        }
    }

    private static final class TreeLine {
        StateTreeMap<Long, String> map;
        TreeMap<Long, String> reference;

        TreeLine(StateTreeMap<Long, String> map, TreeMap<Long, String> reference) {
            this.map = map;
            this.reference = reference;
        }
    }

    @Test
    void manySeededHashHistoriesAndTheirCopiesReadAsVavrsHashMap() {
        int copies = 0;
        for (long seed = 1; seed <= 250; seed++) {
            copies += hashHistory(new Random(seed), 160, 0.05, 40);
        }
        assertTrue(copies > 1000, "copies: " + copies);
    }

    @Test
    void manySeededTreeHistoriesAndTheirCopiesReadAsVavrsTreeMap() {
        int copies = 0;
        for (long seed = 1; seed <= 250; seed++) {
            copies += treeHistory(new Random(seed), 160, 0.05);
        }
        assertTrue(copies > 1000, "copies: " + copies);
    }

    @Test
    void aChangeChangesThisMapAndReturnsIt() {
        StateHashMap<String, Integer> map = StateHashMap.empty();
        assertSame(map, map.put("a", 1));
        assertEquals(1, map.getOrElse("a", null));
        assertSame(map, map.remove("a"));
        assertTrue(map.isEmpty());
        StateTreeMap<Long, String> tree = StateTreeMap.empty();
        assertSame(tree, tree.put(1L, "x").remove(2L));
        assertEquals(List.of(1L), tree.keyList());
    }

    @Test
    void aCopyIsEqualUntilEitherChanges() {
        StateHashMap<String, Integer> map = StateHashMap.<String, Integer>empty().put("a", 1).put("b", 2);
        StateHashMap<String, Integer> copy = map.copy();
        assertEquals(map, copy);
        copy.put("c", 3);
        assertNotEquals(map, copy);
        assertEquals(List.of("a", "b"), map.keyList());
        map.remove("a");
        assertEquals(List.of("a", "b", "c"), copy.keyList());
    }

    @Test
    void keysOfEqualHashComeInTheirNaturalOrder() {
        // "Aa" and "BB" hash alike, so do all strings made of them of one length.
        Random random = new Random(3);
        StateHashMap<String, Integer> map = StateHashMap.empty();
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

    /** A history of {@code steps} changes over lines that copies start; returns how many copies it took. */
    private static int hashHistory(Random random, int steps, double copyChance, int keys) {
        List<HashLine> lines = new ArrayList<>();
        lines.add(new HashLine(StateHashMap.empty(), HashMap.empty()));
        int copies = 0;
        for (int i = 0; i < steps; i++) {
            HashLine line = lines.get(random.nextInt(3) == 0 ? random.nextInt(lines.size()) : lines.size() - 1);
            if (random.nextDouble() < copyChance) {
                lines.add(new HashLine(line.map.copy(), line.reference));
                copies++;
            }
            step(line, random, keys);
            if (random.nextInt(4) == 0) {
                same(lines.get(random.nextInt(lines.size())), random, keys, "a line after " + i + " changes");
            }
        }
        for (HashLine line : lines) {
            same(line, random, keys, "at the end");
        }
        return copies;
    }

    /** One to twelve changes, as a fold step makes. */
    private static void step(HashLine line, Random random, int keys) {
        for (int n = 1 + random.nextInt(random.nextInt(8) == 0 ? 12 : 3); n > 0; n--) {
            String key = "req-" + random.nextInt(keys);
            if (random.nextInt(3) == 0) {
                assertSame(line.map, line.map.remove(key));
                line.reference = line.reference.remove(key);
            } else {
                int value = random.nextInt(1000);
                assertSame(line.map, line.map.put(key, value));
                line.reference = line.reference.put(key, value);
            }
        }
    }

    private static void same(HashLine line, Random random, int keys, String what) {
        StateHashMap<String, Integer> map = line.map;
        HashMap<String, Integer> reference = line.reference;
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
        assertEquals(sorted.values().toJavaList(), map.values(), what + ": values");
        assertEquals(sorted.keySet().toJavaList(), new ArrayList<>(map.keySet()), what);
        assertEquals(sorted.toString().replaceFirst("^TreeMap", "HashMap"), map.toString(), what);
        assertEquals(StateHashMap.ofEntries(reference.toJavaMap().entrySet()), map, what + ": equality");
    }

    private static int treeHistory(Random random, int steps, double copyChance) {
        List<TreeLine> lines = new ArrayList<>();
        lines.add(new TreeLine(StateTreeMap.empty(), TreeMap.empty()));
        int copies = 0;
        long next = 0;
        for (int i = 0; i < steps; i++) {
            TreeLine line = lines.get(random.nextInt(3) == 0 ? random.nextInt(lines.size()) : lines.size() - 1);
            if (random.nextDouble() < copyChance) {
                lines.add(new TreeLine(line.map.copy(), line.reference));
                copies++;
            }
            for (int n = 1 + random.nextInt(3); n > 0; n--) {
                // Jobs: new ids mostly at the end, completions of any held one, now and then an old id again.
                long id = random.nextInt(3) == 0 ? next++ : Math.max(0, next - 1 - random.nextInt(30));
                if (random.nextInt(2) == 0) {
                    line.map = line.map.remove(id);
                    line.reference = line.reference.remove(id);
                } else {
                    String value = "job-" + random.nextInt(100);
                    line.map = line.map.put(id, value);
                    line.reference = line.reference.put(id, value);
                }
            }
            if (random.nextInt(4) == 0) {
                same(lines.get(random.nextInt(lines.size())), random, next, "a line after " + i + " changes");
            }
        }
        for (TreeLine line : lines) {
            same(line, random, next, "at the end");
        }
        return copies;
    }

    private static void same(TreeLine line, Random random, long ids, String what) {
        StateTreeMap<Long, String> map = line.map;
        TreeMap<Long, String> reference = line.reference;
        for (int i = 0; i < 6; i++) {
            long id = ids == 0 ? 0 : random.nextInt((int) ids + 1);
            assertEquals(reference.getOrElse(id, null), map.getOrElse(id, null), what + ": " + id);
            assertEquals(reference.containsKey(id), map.containsKey(id), what + ": " + id);
        }
        assertEquals(reference.size(), map.size(), what);
        assertEquals(reference.keySet().toJavaSet(), map.keySet(), what);
        assertEquals(reference.keySet().toJavaList(), new ArrayList<>(map.keySet()), what + ": key set order");
        assertEquals(reference.keySet().toJavaList(), map.keyList(), what + ": order");
        assertEquals(reference.values().toJavaList(), map.values(), what + ": values");
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
