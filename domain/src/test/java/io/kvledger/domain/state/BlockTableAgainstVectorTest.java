package io.kvledger.domain.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vavr.collection.Vector;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The block table that appends in place is the value the Vavr {@code Vector<Integer>} it replaces was: over
 * many seeded histories (changes of the newest table mostly, of an older one now and then: a second branch
 * writing past the same array's claimed end), every table made so far, the newest and the old ones, reads as
 * its twin: size, each entry, {@code indexOf}, {@code lastIndexOf}, {@code contains} (nulls included),
 * equality, hash code and the sequence. Ids span the whole {@code int} range a foreign log may name, so no
 * id is mistaken for the null entry. Sliding windows' frees of their oldest blocks make the leading null entries the
 * table counts without storing them; any other change (a null put in the middle, a block put where a null was, a
 * drop or a sub-sequence across them) goes through them too.
 */
class BlockTableAgainstVectorTest {

    private record Twin(BlockTable table, Vector<Integer> reference) {
    }

    private static final int[] ODD_IDS = {-1, 0, Integer.MIN_VALUE, Integer.MAX_VALUE, -2, 127, 128, 100_000};

    @Test
    void everyVersionOfManySeededHistoriesReadsAsTheVector() {
        int forks = 0;
        for (long seed = 1; seed <= 800; seed++) {
            forks += history(new Random(seed), 80, 0.1);
        }
        assertTrue(forks > 2500, "changes of an older table: " + forks);
    }

    @Test
    void longLinesOfAppendsAndReleasesReadAsTheVector() {
        for (long seed = 1; seed <= 5; seed++) {
            history(new Random(seed), 4000, 0.003);
        }
    }

    @Test
    void aTableHasTheVectorsBoundsAndNullEntries() {
        BlockTable table = BlockTable.of(Arrays.asList(3, null, -1, Integer.MIN_VALUE));
        assertEquals(Arrays.asList(3, null, -1, Integer.MIN_VALUE), table);
        assertEquals(1, table.indexOf(null));
        assertEquals(2, table.indexOf(-1));
        assertEquals(3, table.indexOf(Integer.MIN_VALUE));
        assertEquals(-1, table.indexOf("3"), "only an Integer is an entry");
        assertTrue(table.isNull(1) && !table.isNull(2) && table.hasNull() && table.hasBlock());
        assertEquals(BlockTable.EMPTY, BlockTable.of(Arrays.asList((Integer) null)).withoutNulls());
        assertTrue(!BlockTable.of(Arrays.asList((Integer) null, null)).hasBlock());
        assertThrows(IndexOutOfBoundsException.class, () -> table.get(4));
        assertThrows(IndexOutOfBoundsException.class, () -> table.subSequence(2, 5));
        assertThrows(IndexOutOfBoundsException.class, () -> table.update(-1, 3));
        assertThrows(UnsupportedOperationException.class, () -> table.add(5));
        assertEquals(BlockTable.EMPTY, table.drop(9));
        assertEquals(table, table.drop(0));
    }

    @Test
    void groupTablesReadAsTheRecordOfVectorsTheyWere() {
        Random random = new Random(5);
        for (int round = 0; round < 300; round++) {
            int groups = 2 + random.nextInt(4);
            GroupTables tables = GroupTables.empty(groups);
            Vector<Vector<Integer>> referenceTables = Vector.fill(groups - 1, Vector::empty);
            Vector<Integer> referenceCursors = Vector.fill(groups - 1, () -> 0);
            for (int step = 0; step < 20; step++) {
                int g = 1 + random.nextInt(groups - 1);
                if (random.nextBoolean()) {
                    List<Integer> added = ids(random, random.nextInt(5));
                    tables = tables.withTable(g, tables.tables().get(g - 1).appendAll(added));
                    referenceTables = referenceTables.update(g - 1, referenceTables.get(g - 1).appendAll(added));
                } else {
                    int cursor = random.nextInt(300);
                    tables = tables.withCursor(g, cursor);
                    referenceCursors = referenceCursors.update(g - 1, cursor);
                }
                assertEquals("GroupTables[tables=" + referenceTables + ", cursors=" + referenceCursors + "]", tables.toString());
                assertEquals(referenceCursors.asJava(), tables.cursors());
                for (int k = 0; k < groups - 1; k++) {
                    assertEquals(referenceTables.get(k).asJava(), tables.tables().get(k));
                }
            }
        }
    }

    /** One history of {@code steps} changes; returns how many changed a table other than the newest. */
    private static int history(Random random, int steps, double forkRate) {
        List<Twin> made = new ArrayList<>();
        Twin newest = new Twin(BlockTable.EMPTY, Vector.empty());
        made.add(newest);
        int forks = 0;
        for (int step = 0; step < steps; step++) {
            Twin from = newest;
            if (random.nextDouble() < forkRate) {
                from = made.get(random.nextInt(made.size()));
                forks++;
            }
            newest = change(from, random);
            made.add(newest);
            if (step % 7 == 0) {
                same(made.get(random.nextInt(made.size())), random);
            }
        }
        for (Twin twin : made) {
            same(twin, random);
        }
        return forks;
    }

    private static Twin change(Twin twin, Random random) {
        BlockTable table = twin.table();
        Vector<Integer> reference = twin.reference();
        switch (random.nextInt(13)) {
            case 0, 1, 2, 3 -> {
                List<Integer> added = ids(random, random.nextInt(random.nextBoolean() ? 3 : 40));
                return new Twin(table.appendAll(added), reference.appendAll(added));
            }
            case 4, 5 -> {
                // A release: a prefix (preemption, the common case), the whole table, or any blocks.
                List<Integer> removed = random.nextBoolean() && !reference.isEmpty()
                        ? new ArrayList<>(reference.take(random.nextInt(reference.size()) + 1).asJava())
                        : ids(random, random.nextInt(6));
                List<Integer> expected = new ArrayList<>(reference.asJava());
                removed.forEach(expected::remove);
                return new Twin(BlockCounts.remove(table, removed), Vector.ofAll(expected));
            }
            case 6 -> {
                if (reference.isEmpty()) {
                    return twin;
                }
                int at = random.nextInt(reference.size());
                Integer value = random.nextBoolean() ? null : id(random);
                return new Twin(table.update(at, value), reference.update(at, value));
            }
            case 7 -> {
                int count = random.nextInt(reference.size() + 2);
                return new Twin(table.drop(count), reference.drop(count));
            }
            case 8 -> {
                int end = random.nextInt(reference.size() + 1);
                int start = random.nextInt(end + 1);
                return new Twin(table.subSequence(start, end), reference.subSequence(start, end));
            }
            case 9, 10, 11 -> {
                // A sliding window's free: its oldest block (the first one) becomes null, a run of them at times.
                int frees = random.nextInt(4) == 0 ? 1 + random.nextInt(6) : 1;
                BlockTable freed = table;
                Vector<Integer> expected = reference;
                for (int k = 0; k < frees; k++) {
                    int first = expected.indexWhere(block -> block != null);
                    if (first < 0) {
                        break;
                    }
                    assertEquals(first, freed.indexOf(expected.get(first)), "the oldest block is found past the freed ones");
                    freed = freed.update(first, null);
                    expected = expected.update(first, (Integer) null);
                }
                return new Twin(freed, expected);
            }
            default -> {
                return new Twin(table.withoutNulls(), reference.filter(block -> block != null));
            }
        }
    }

    private static void same(Twin twin, Random random) {
        BlockTable table = twin.table();
        Vector<Integer> reference = twin.reference();
        java.util.function.Supplier<String> where = () -> "table " + table + " against " + reference;
        assertEquals(reference.size(), table.size(), where);
        assertEquals(reference.isEmpty(), table.isEmpty(), where);
        assertEquals(reference.asJava(), table, where);
        assertEquals(table, reference.asJava(), where);
        assertEquals(reference.asJava().hashCode(), table.hashCode(), where);
        assertEquals(table, BlockTable.of(new ArrayList<>(reference.asJava())), where);
        assertEquals(BlockTable.of(new ArrayList<>(reference.asJava())).hashCode(), table.hashCode(), where);
        assertEquals(reference.toJavaList(), table.toJavaList(), where);
        assertEquals(reference.toString(), table.toString(), "the state's text");
        assertEquals(reference.asJava().toString(), table.asJava().toString(), "a message's text");
        assertEquals(reference.asJava(), table.asJava(), where);
        assertEquals(reference.asJava().hashCode(), table.asJava().hashCode(), where);
        List<Integer> iterated = new ArrayList<>();
        table.forEach(iterated::add);
        assertEquals(reference.toJavaList(), iterated, where);
        for (int i = 0; i < reference.size(); i++) {
            int at = i;
            assertEquals(reference.get(i), table.get(i), () -> where.get() + " at " + at);
            assertEquals(reference.get(i) == null, table.isNull(i), () -> where.get() + " at " + at);
        }
        assertEquals(reference.contains(null), table.hasNull(), where);
        List<Integer> immutable = table.immutableBlocks();
        assertEquals(reference.contains(null) ? null : reference.asJava(), immutable, where);
        if (immutable != null) {
            assertThrows(UnsupportedOperationException.class, () -> immutable.add(1), where);
        }
        assertEquals(reference.exists(block -> block != null), table.hasBlock(), where);
        assertEquals(reference.indexOf(null), table.indexOf(null), where);
        assertEquals(reference.lastIndexOf(null), table.lastIndexOf(null), where);
        for (int k = 0; k < 4; k++) {
            Integer probe = random.nextInt(3) == 0 || reference.isEmpty() ? id(random) : reference.get(random.nextInt(reference.size()));
            assertEquals(reference.indexOf(probe), table.indexOf(probe), () -> where.get() + " indexOf " + probe);
            assertEquals(reference.lastIndexOf(probe), table.lastIndexOf(probe), () -> where.get() + " lastIndexOf " + probe);
            assertEquals(reference.contains(probe), table.contains(probe), () -> where.get() + " contains " + probe);
            if (probe != null) {
                for (int i = 0; i < reference.size(); i++) {
                    int at = i;
                    assertEquals(probe.equals(reference.get(i)), table.isBlock(i, probe), () -> where.get() + " isBlock " + at);
                }
            }
        }
    }

    private static List<Integer> ids(Random random, int count) {
        List<Integer> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add(random.nextInt(8) == 0 ? null : id(random));
        }
        return ids;
    }

    private static Integer id(Random random) {
        return random.nextInt(10) == 0 ? ODD_IDS[random.nextInt(ODD_IDS.length)] : random.nextInt(24);
    }
}
