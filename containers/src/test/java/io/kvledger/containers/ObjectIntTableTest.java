package io.kvledger.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The key-to-int table reads as {@link java.util.HashMap} over many seeded histories of puts, removes, clears
 * and copies, at sizes from a few keys to thousands (so it grows and its probe runs are deleted from), with keys
 * that hash alike, and with each key looked up as the object put or as an equal other one.
 */
class ObjectIntTableTest {

    @Test
    void manySeededHistoriesReadAsJavasHashMap() {
        for (long seed = 1; seed <= 300; seed++) {
            Random random = new Random(seed);
            int keys = 1 + random.nextInt(seed % 10 == 0 ? 2000 : 60);
            history(random, keys, 20 * keys + 200, keys <= 100 && random.nextBoolean());
        }
    }

    @Test
    void aMissingKeyAndTheMissingNumberAreRefusedOrReadAsMissing() {
        ObjectIntTable<String> table = new ObjectIntTable<>();
        assertEquals(ObjectIntTable.MISSING, table.get("a"));
        assertEquals(ObjectIntTable.MISSING, table.get(null));
        assertEquals(ObjectIntTable.MISSING, table.remove("a"));
        assertThrows(NullPointerException.class, () -> table.put(null, 1));
        assertThrows(IllegalArgumentException.class, () -> table.put("a", ObjectIntTable.MISSING));
        assertEquals(ObjectIntTable.MISSING, table.put("a", 0));
        assertEquals(0, table.put("a", 7));
        assertEquals(7, table.get(new String("a")));
    }

    private static void history(Random random, int keyCount, int steps, boolean colliding) {
        List<String> pool = new ArrayList<>();
        for (int i = 0; i < keyCount; i++) {
            pool.add(colliding ? colliding(i) : "chunk-" + i);
        }
        ObjectIntTable<String> table = new ObjectIntTable<>();
        Map<String, Integer> reference = new HashMap<>();
        ObjectIntTable<String> copy = null;
        Map<String, Integer> copied = null;
        String what = "keys " + keyCount + (colliding ? ", colliding" : "");
        for (int step = 0; step < steps; step++) {
            String key = pick(random, pool);
            switch (random.nextInt(40)) {
                case 0 -> {
                    table.clear();
                    reference.clear();
                }
                case 1, 2, 3, 4 -> {
                    copy = new ObjectIntTable<>(table);
                    copied = new HashMap<>(reference);
                }
                case 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 ->
                        assertEquals(orMissing(reference.remove(key)), table.remove(key), what);
                default -> {
                    int value = random.nextInt(1000);
                    assertEquals(orMissing(reference.put(key, value)), table.put(key, value), what);
                }
            }
            String probe = random.nextBoolean() ? key : pick(random, pool);
            assertEquals(orMissing(reference.get(probe)), table.get(probe), what + ": " + probe);
            assertEquals(reference.containsKey(probe), table.containsKey(probe), what + ": " + probe);
            assertEquals(reference.size(), table.size(), what);
            if (step % 97 == 0 || step == steps - 1) {
                for (String each : pool) {
                    assertEquals(orMissing(reference.get(each)), table.get(each), what + ": every key");
                    if (copy != null) {
                        assertEquals(orMissing(copied.get(each)), copy.get(each),
                                what + ": a copy is changed by none of the original's changes");
                    }
                }
            }
        }
    }

    private static int orMissing(Integer value) {
        return value == null ? ObjectIntTable.MISSING : value;
    }

    /** The pool's key, or an equal string of its own. */
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
