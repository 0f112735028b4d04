package io.kvledger.domain.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Taking blocks out of a table in one pass gives what removing them from a list one by one gives. */
class BlockCountsTest {

    @Test
    void aMultisetGivesEachOccurrenceOnce() {
        BlockCounts counts = BlockCounts.of(List.of(5, 5, 6), 3);
        assertFalse(counts.isEmpty());
        assertTrue(counts.takeOne(5));
        assertTrue(counts.takeOne(5));
        assertFalse(counts.takeOne(5));
        assertFalse(counts.isEmpty());
        assertTrue(counts.takeOne(6));
        assertTrue(counts.isEmpty());
        assertFalse(counts.takeOne(7));
    }

    @Test
    void removingTakesFirstOccurrencesFirstAndKeepsTheOrder() {
        BlockTable table = BlockTable.of(1, 2, 3, 2, 1);
        assertSame(table, BlockCounts.remove(table, List.of()));
        assertEquals(BlockTable.of(3, 2, 1), BlockCounts.remove(table, List.of(2, 1)));
        assertEquals(BlockTable.of(3, 2, 1), BlockCounts.remove(table, List.of(1, 2)), "a prefix");
        assertEquals(BlockTable.of(1, 3, 1), BlockCounts.remove(table, List.of(2, 2)));
        assertEquals(BlockTable.EMPTY, BlockCounts.remove(table, List.of(1, 2, 3, 2, 1)));
        assertEquals(BlockTable.EMPTY, BlockCounts.remove(BlockTable.of(1), List.of(1, 1)), "more than the table holds");
        assertEquals(BlockTable.of(2), BlockCounts.remove(BlockTable.of(1, 2), List.of(9, 1)), "an id the table lacks");
    }

    @Test
    void removingIsRemovingOneByOneForManySeededTables() {
        for (long seed = 1; seed <= 2000; seed++) {
            Random random = new Random(seed);
            List<Integer> table = new ArrayList<>();
            for (int i = random.nextInt(12); i > 0; i--) {
                table.add(random.nextInt(6));
            }
            List<Integer> removed = new ArrayList<>();
            if (random.nextBoolean() && !table.isEmpty()) {
                removed.addAll(table.subList(0, random.nextInt(table.size()) + 1)); // a prefix, the common case
            } else {
                for (int i = random.nextInt(8); i > 0; i--) {
                    removed.add(random.nextInt(7));
                }
            }
            List<Integer> expected = new ArrayList<>(table);
            removed.forEach(block -> expected.remove(block));
            assertEquals(BlockTable.of(expected), BlockCounts.remove(BlockTable.of(table), removed),
                    "seed " + seed + ": " + table + " without " + removed);
        }
    }
}
