package io.kvledger.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The open-addressing table under {@link StateHashMap} reads as {@link java.util.HashMap} over many seeded
 * histories of puts, removes and copies, at sizes from a few keys to thousands (so it grows and its probe runs
 * are deleted from), with keys that hash alike, and with the key looked up given as the very object last used
 * (which the table remembers by identity), as an equal but other object, or as one since removed.
 */
class OpenHashTableTest {

    @Test
    void manySeededHistoriesReadAsJavasHashMap() {
        for (long seed = 1; seed <= 300; seed++) {
            Random random = new Random(seed);
            int keys = 1 + random.nextInt(seed % 10 == 0 ? 2000 : 60);
            // Keys that all hash alike probe through every one of them: a pool of at most a hundred of those.
            history(random, keys, 20 * keys + 200, keys <= 100 && random.nextBoolean());
        }
    }

    @Test
    void theKeyLastUsedIsFoundAgainOnlyWhileItIsHeld() {
        OpenHashTable<String, Integer> table = new OpenHashTable<>();
        String id = new String("req-1");
        table.put(id, 1);
        assertEquals(1, table.get(id));
        table.remove(new String("req-1")); // an equal id, not the one remembered
        assertNull(table.get(id));
        assertFalse(table.containsKey(id));
        table.put(new String("req-2"), 2);
        table.put(id, 3);
        table.put(new String("req-1"), 4); // replaces, by equality
        assertEquals(4, table.get(id));
        assertEquals(2, table.size());
    }

    @Test
    void aCopyWithItsOwnValuesLeavesTheOriginalAsItWas() {
        // The state's copy: each request copied, so changing one copy's value changes nothing of the other map.
        for (long seed = 1; seed <= 50; seed++) {
            Random random = new Random(seed);
            StateHashMap<Integer, int[]> map = StateHashMap.empty();
            Map<Integer, Integer> expected = new HashMap<>();
            for (int i = 0, n = 1 + random.nextInt(500); i < n; i++) {
                int key = random.nextInt(1000);
                int value = random.nextInt();
                map.put(key, new int[] {value});
                expected.put(key, value);
            }
            StateHashMap<Integer, int[]> copy = map.copy(int[]::clone);
            map.forEach((key, value) -> value[0]++);
            assertEquals(expected.size(), copy.size());
            copy.forEach((key, value) -> assertEquals(expected.get(key), value[0], "key " + key));
            map.forEach((key, value) -> assertEquals(expected.get(key) + 1, value[0], "key " + key));
        }
    }

    @Test
    void anyValueAsksEveryValueOfEitherMap() {
        StateHashMap<String, Integer> hashed = StateHashMap.empty();
        StateTreeMap<Long, Integer> tree = StateTreeMap.empty();
        for (int i = 0; i < 100; i++) {
            hashed.put("k" + i, i);
            tree.put((long) i, i);
        }
        for (int probe : new int[] {0, 57, 99}) {
            assertTrue(hashed.anyValue(value -> value == probe));
            assertTrue(tree.anyValue(value -> value == probe));
        }
        assertFalse(hashed.anyValue(value -> value >= 100));
        assertFalse(tree.anyValue(value -> value < 0));
        assertFalse(StateHashMap.<String, Integer>empty().anyValue(value -> true));
    }

    @Test
    void replaceAllReplacesEveryValueAndKeepsTheKeys() {
        OpenHashTable<String, Integer> table = new OpenHashTable<>();
        Map<String, Integer> expected = new HashMap<>();
        for (int i = 0; i < 300; i++) {
            table.put("k" + i, i);
            expected.put("k" + i, i);
        }
        table.replaceAll((key, value) -> value * 2 + key.length());
        expected.replaceAll((key, value) -> value * 2 + key.length());
        assertEquals(expected, table);
        assertThrows(NullPointerException.class, () -> table.replaceAll((key, value) -> null));
    }

    @Test
    void nullKeysAreHeldByNoneAndNeitherKeysNorValuesMayBeNull() {
        OpenHashTable<String, Integer> table = new OpenHashTable<>();
        assertNull(table.get(null));
        assertFalse(table.containsKey(null));
        assertNull(table.remove(null));
        assertThrows(NullPointerException.class, () -> table.put(null, 1));
        assertThrows(NullPointerException.class, () -> table.put("a", null));
        assertTrue(table.isEmpty());
    }

    private static void history(Random random, int keyCount, int steps, boolean colliding) {
        List<String> pool = new ArrayList<>();
        for (int i = 0; i < keyCount; i++) {
            pool.add(colliding ? colliding(i) : "req-" + i);
        }
        OpenHashTable<String, Integer> table = new OpenHashTable<>();
        Map<String, Integer> reference = new HashMap<>();
        OpenHashTable<String, Integer> copy = null;
        Map<String, Integer> copied = null;
        String what = "keys " + keyCount + (colliding ? ", colliding" : "");
        for (int step = 0; step < steps; step++) {
            String key = pick(random, pool);
            switch (random.nextInt(10)) {
                case 0, 1, 2 -> assertEquals(reference.remove(key), table.remove(key), what);
                case 3 -> {
                    copy = new OpenHashTable<>(table);
                    copied = new HashMap<>(reference);
                }
                default -> {
                    int value = random.nextInt(1000);
                    assertEquals(reference.put(key, value), table.put(key, value), what);
                }
            }
            String probe = random.nextBoolean() ? key : pick(random, pool);
            assertEquals(reference.get(probe), table.get(probe), what + ": " + probe);
            assertEquals(reference.containsKey(probe), table.containsKey(probe), what + ": " + probe);
            assertEquals(reference.size(), table.size(), what);
            if (step % 97 == 0 || step == steps - 1) {
                assertEquals(reference, table, what + ": every entry");
                assertEquals(table, reference, what + ": every entry, iterated");
                assertEquals(reference.hashCode(), table.hashCode(), what);
                if (copy != null) {
                    assertEquals(copied, copy, what + ": a copy is changed by none of the original's changes");
                }
            }
        }
    }

    /** The pool's key, or an equal string of its own (the table then cannot find it by identity). */
    private static String pick(Random random, List<String> pool) {
        String key = pool.get(random.nextInt(pool.size()));
        return random.nextInt(4) == 0 ? new String(key) : key;
    }

    /** Strings made of "Aa" and "BB", which hash alike at one length: the {@code i}-th of length 2 * 12. */
    private static String colliding(int i) {
        StringBuilder out = new StringBuilder();
        for (int bit = 0; bit < 12; bit++) {
            out.append((i >> bit & 1) == 0 ? "Aa" : "BB");
        }
        return out.toString();
    }
}
