package io.kvledger.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The recency map reads as a {@link LinkedHashMap} in insertion order whose touched entries are taken out and put
 * back (so the oldest comes first), with a mark beside each value: over many seeded histories of puts, touches,
 * replacements, removals, clears and copies, at sizes from a few keys to thousands, its walk from the oldest gives
 * the reference's keys, values and marks in order and its marked count is theirs (after every operation while the
 * map is small, every 97th when it is big), and after every operation a look-up finds what the reference holds and
 * its slots never outgrow the most entries it held at once.
 */
class RecencyMapTest {

    private record Entry(String value, boolean mark) {
    }

    @Test
    void manySeededHistoriesReadAsAnInsertionOrderedMapWithMarks() {
        for (long seed = 1; seed <= 300; seed++) {
            Random random = new Random(seed);
            int keys = 1 + random.nextInt(seed % 10 == 0 ? 3000 : 40);
            history(random, keys, 10 * keys + 200);
        }
    }

    @Test
    void puttingAKeyItHoldsChangesNothing() {
        RecencyMap<String, String> map = new RecencyMap<>();
        map.putNewestIfAbsent("a", "1", true);
        map.putNewestIfAbsent("b", "2", false);
        assertFalse(map.putNewestIfAbsent("a", "3", false));
        assertEquals(List.of("a=1 true", "b=2 false"), walk(map));
        assertEquals(1, map.markedCount());
        assertEquals(2, map.slotsUsed());
        map.putNewestIfAbsent("c", "4", true);
        assertEquals(3, map.slotsUsed());
        assertThrows(NullPointerException.class, () -> map.putNewestIfAbsent("d", null, false));
        assertNull(map.remove("missing"));
        assertEquals(RecencyMap.END, map.find("missing"));
    }

    private static void history(Random random, int keyCount, int steps) {
        RecencyMap<String, String> map = new RecencyMap<>(random.nextInt(4) == 0 ? keyCount : 0);
        LinkedHashMap<String, Entry> reference = new LinkedHashMap<>();
        RecencyMap<String, String> copy = null;
        List<String> copied = null;
        int mostHeld = 0;
        String what = "keys " + keyCount;
        for (int step = 0; step < steps; step++) {
            String key = "chunk-" + random.nextInt(keyCount);
            String value = "v" + step;
            boolean mark = random.nextBoolean();
            int cursor = map.find(key);
            switch (random.nextInt(20)) {
                case 0 -> {
                    if (random.nextInt(10) == 0) {
                        map.clear();
                        reference.clear();
                        mostHeld = 0;
                    }
                }
                case 1 -> {
                    copy = new RecencyMap<>(map);
                    copied = walk(map);
                }
                case 2, 3, 4, 5 -> {
                    Entry gone = reference.remove(key);
                    assertEquals(gone == null ? null : gone.value(), map.remove(key), what);
                }
                case 6, 7, 8 -> {
                    if (cursor != RecencyMap.END) {
                        map.replaceAt(cursor, value, mark);
                        reference.put(key, new Entry(value, mark));
                    }
                }
                case 9, 10, 11, 12 -> {
                    if (cursor != RecencyMap.END) {
                        map.touchAt(cursor, value);
                        Entry held = reference.remove(key);
                        reference.put(key, new Entry(value, held.mark()));
                    }
                }
                default -> {
                    assertEquals(cursor == RecencyMap.END, map.putNewestIfAbsent(key, value, mark), what);
                    reference.putIfAbsent(key, new Entry(value, mark));
                }
            }
            mostHeld = Math.max(mostHeld, reference.size());
            boolean whole = keyCount <= 60 || step % 97 == 0 || step == steps - 1; // a walk is O(n): not every step of a big map
            if (whole) {
                assertEquals(expected(reference), walk(map), what + " after step " + step);
                assertEquals(reference.values().stream().filter(Entry::mark).count(), map.markedCount(), what);
            }
            assertEquals(reference.size(), map.size(), what);
            assertTrue(map.slotsUsed() <= mostHeld, what + ": a removed entry's slot is taken again first");
            String probe = "chunk-" + random.nextInt(keyCount);
            Entry held = reference.get(probe);
            assertEquals(held == null ? null : held.value(), map.get(new String(probe)), what + ": " + probe);
            assertEquals(held != null, map.containsKey(probe), what);
            if (copy != null && whole) {
                assertEquals(copied, walk(copy), what + ": a copy is changed by none of the original's changes");
            }
        }
    }

    private static List<String> expected(Map<String, Entry> reference) {
        List<String> entries = new ArrayList<>();
        reference.forEach((key, entry) -> entries.add(key + "=" + entry.value() + " " + entry.mark()));
        return entries;
    }

    private static List<String> walk(RecencyMap<String, String> map) {
        List<String> entries = new ArrayList<>();
        for (int at = map.oldest(); at != RecencyMap.END; at = map.newer(at)) {
            entries.add(map.keyAt(at) + "=" + map.valueAt(at) + " " + map.markedAt(at));
        }
        return entries;
    }
}
