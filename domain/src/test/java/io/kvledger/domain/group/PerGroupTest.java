package io.kvledger.domain.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A per-group field is immutable: its lists are copies a caller's later changes do not reach (whatever list it was
 * made from, nulls included), none of them can be changed through the field, an immutable list is taken as it is,
 * and it equals, hashes and prints as the lists it was made of; its flat list is theirs one after another.
 */
class PerGroupTest {

    @Test
    void givenListsAFieldIsMadeOfWhenTheyChangeAfterwardsThenTheFieldDoesNot() {
        Random random = new Random(7);
        for (int round = 0; round < 500; round++) {
            int groups = 1 + random.nextInt(3);
            List<List<Integer>> sources = new ArrayList<>();
            List<List<Integer>> expected = new ArrayList<>();
            for (int g = 0; g < groups; g++) {
                List<Integer> list = new ArrayList<>();
                for (int i = random.nextInt(6); i > 0; i--) {
                    list.add(random.nextInt(5) == 0 ? null : random.nextInt(100));
                }
                List<Integer> source = random.nextBoolean() ? list : Arrays.asList(list.toArray(Integer[]::new));
                sources.add(source);
                expected.add(new ArrayList<>(list));
            }
            PerGroup<Integer> field = PerGroup.of(sources);
            for (List<Integer> source : sources) {
                if (!source.isEmpty()) {
                    source.set(0, -1);   // the caller's list changes; the field's copy does not
                }
            }
            assertEquals(expected, field.lists(), "round " + round);
            assertEquals(expected.hashCode(), field.lists().hashCode());
            assertEquals(groups == 1 ? expected.get(0).toString() : expected.toString(), field.toString());
            List<Integer> flat = new ArrayList<>();
            expected.forEach(flat::addAll);
            assertEquals(flat, field.flat(), "the lists one after another, nulls kept");
            assertThrows(UnsupportedOperationException.class, () -> field.flat().add(1));
            for (int g = 0; g < groups; g++) {
                List<Integer> list = field.group(g);
                assertThrows(UnsupportedOperationException.class, () -> list.add(1));
                if (!list.isEmpty()) {
                    assertThrows(UnsupportedOperationException.class, () -> list.set(0, 1));
                }
            }
        }
    }

    @Test
    void anImmutableListIsTakenAsItIs() {
        List<Integer> blocks = List.of(1, 2, 3);
        assertSame(blocks, PerGroup.single(blocks).group(0));
        PerGroup<Integer> copied = PerGroup.single(new ArrayList<>(blocks));
        assertSame(copied.group(0), PerGroup.single(copied.group(0)).group(0), "a field's own list is not copied again");
        List<List<Integer>> immutable = List.of(List.of(1, 2), List.of(3));
        assertSame(immutable, PerGroup.of(immutable).lists(), "immutable lists in an immutable list: taken as they are");
        List<List<Integer>> mixed = List.of(List.of(1, 2), new ArrayList<>(List.of(3)));
        PerGroup<Integer> field = PerGroup.of(mixed);
        assertSame(mixed.get(0), field.group(0));
        mixed.get(1).set(0, 4);
        assertEquals(List.of(List.of(1, 2), List.of(3)), field.lists(), "a mutable list among them is copied");
    }
}
