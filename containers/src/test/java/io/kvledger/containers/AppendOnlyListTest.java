package io.kvledger.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Every version of an append-only list keeps what it held: over many seeded histories that append to the
 * newest version mostly and to an older one now and then (a second branch writing past the same array's
 * claimed end, which must copy), every version made so far still reads as the plain list it was built as.
 */
class AppendOnlyListTest {

    private record Twin(AppendOnlyList<String> list, List<String> reference) {
    }

    @Test
    void everyVersionOfManySeededHistoriesKeepsItsElements() {
        int forks = 0;
        for (long seed = 1; seed <= 500; seed++) {
            Random random = new Random(seed);
            List<Twin> made = new ArrayList<>();
            Twin newest = new Twin(AppendOnlyList.empty(), List.of());
            made.add(newest);
            for (int step = 0; step < 80; step++) {
                Twin from = newest;
                if (random.nextInt(8) == 0) {
                    from = made.get(random.nextInt(made.size()));
                    forks++;
                }
                String[] more = new String[random.nextInt(random.nextBoolean() ? 3 : 12)];
                for (int i = 0; i < more.length; i++) {
                    more[i] = "h" + random.nextInt(1000);
                }
                List<String> expected = new ArrayList<>(from.reference());
                expected.addAll(List.of(more));
                newest = new Twin(from.list().plus(more), List.copyOf(expected));
                made.add(newest);
            }
            for (Twin twin : made) {
                assertEquals(twin.reference(), twin.list());
                assertEquals(twin.reference().hashCode(), twin.list().hashCode());
                assertEquals(twin.reference(), AppendOnlyList.of(twin.reference()));
            }
        }
        assertTrue(forks > 3000, "appends to an older list: " + forks);
    }

    @Test
    void appendingNothingIsTheSameListAndNullsAreRefused() {
        AppendOnlyList<String> list = AppendOnlyList.of(List.of("a"));
        assertSame(list, list.plus(new String[0]));
        assertThrows(IndexOutOfBoundsException.class, () -> list.get(1));
        assertThrows(NullPointerException.class, () -> AppendOnlyList.of(java.util.Arrays.asList("a", null)));
        assertThrows(UnsupportedOperationException.class, () -> list.add("b"));
    }
}
