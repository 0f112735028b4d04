package io.kvledger.domain.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The tier that changes in place is the value the persistent one was: over many seeded histories, each line of
 * changes reads as its twin of {@link PersistentCpuTier} reads: its chunks, evictable order, clock, size, each
 * key's chunk, the eviction candidates and the least-recent-first order. Now and then a line is
 * {@linkplain CpuTier#copy() copied} and both go on changing apart, each still reading as its own twin.
 */
class CpuTierAgainstPersistentTest {

    /** One line of changes: the tier and its persistent twin. */
    private record Twin(CpuTier tier, PersistentCpuTier reference) {
    }

    @Test
    void manySeededHistoriesAndTheirCopiesReadAsThePersistentTier() {
        int copies = 0;
        for (long seed = 1; seed <= 400; seed++) {
            copies += history(new Random(seed), 120, 0.04);
        }
        assertTrue(copies > 1000, "copies: " + copies);
    }

    @Test
    void longHistoriesReadAsThePersistentTier() {
        for (long seed = 1; seed <= 3; seed++) {
            history(new Random(seed), 9000, 0.0005);
        }
    }

    @Test
    void aChangeChangesThisTierAndReturnsIt() {
        CpuTier tier = CpuTier.empty(8);
        assertSame(tier, tier.writing(List.of("a", "b")).ready(List.of("a")).touch(List.of("b")).pin(List.of("a")));
        assertEquals(2, tier.size());
        assertEquals(3, tier.clock());
        CpuTier copy = tier.copy();
        assertEquals(tier, copy);
        assertSame(tier, tier.remove(List.of("a")).cleared());
        assertEquals(0, tier.size());
        assertEquals(2, copy.size());
    }

    /** A history of {@code steps} changes over lines that copies start; returns how many copies it took. */
    private static int history(Random random, int steps, double copyChance) {
        List<Twin> lines = new ArrayList<>();
        lines.add(new Twin(CpuTier.empty(32), PersistentCpuTier.empty(32)));
        int copies = 0;
        for (int i = 0; i < steps; i++) {
            int at = random.nextInt(3) == 0 ? random.nextInt(lines.size()) : lines.size() - 1;
            Twin line = lines.get(at);
            if (random.nextDouble() < copyChance) {
                lines.add(new Twin(line.tier().copy(), line.reference()));
                copies++;
            }
            Twin next = step(line, random);
            assertSame(line.tier(), next.tier(), "a change returns the tier it changed");
            lines.set(at, next);
            if (random.nextInt(4) == 0) {
                same(lines.get(random.nextInt(lines.size())), random, "a line after " + i + " changes");
            }
        }
        for (Twin line : lines) {
            same(line, random, "at the end");
        }
        return copies;
    }

    private static Twin step(Twin from, Random random) {
        List<String> keys = keys(random, 1 + random.nextInt(6));
        return switch (random.nextInt(8)) {
            case 0 -> new Twin(from.tier().writing(keys), from.reference().writing(keys));
            case 1 -> new Twin(from.tier().touch(keys), from.reference().touch(keys));
            case 2 -> {
                List<String> touched = keys(random, random.nextInt(8));
                yield new Twin(from.tier().writingThenTouching(keys, touched), from.reference().writingThenTouching(keys, touched));
            }
            case 3 -> new Twin(from.tier().ready(keys), from.reference().ready(keys));
            case 4 -> new Twin(from.tier().remove(keys), from.reference().remove(keys));
            case 5 -> new Twin(from.tier().pin(keys), from.reference().pin(keys));
            case 6 -> new Twin(from.tier().unpin(keys), from.reference().unpin(keys));
            default -> random.nextInt(40) == 0 ? new Twin(from.tier().cleared(), from.reference().cleared())
                    : new Twin(from.tier().writing(keys).ready(keys), from.reference().writing(keys).ready(keys));
        };
    }

    private static void same(Twin twin, Random random, String what) {
        CpuTier tier = twin.tier();
        PersistentCpuTier reference = twin.reference();
        List<String> probe = keys(random, 6);
        for (String key : probe) {
            assertEquals(reference.chunk(key), tier.chunk(key), what + ": chunk " + key);
            assertEquals(reference.holds(key), tier.holds(key), what);
            assertEquals(reference.isReady(key), tier.isReady(key), what);
        }
        Set<String> protectedKeys = new HashSet<>(keys(random, random.nextInt(4)));
        int count = random.nextInt(12);
        assertEquals(reference.evictionCandidates(count, protectedKeys), tier.evictionCandidates(count, protectedKeys),
                what + ": candidates");
        List<String> held = probe.stream().filter(reference::holds).distinct().toList();
        assertEquals(reference.leastRecentFirst(held), tier.leastRecentFirst(held), what);
        assertEquals(reference.size(), tier.size(), what);
        assertEquals(reference.clock(), tier.clock(), what);
        assertEquals(reference.chunks().toJavaMap(), tier.chunks(), what);
        assertEquals(reference.evictable().toJavaMap(), tier.evictable(), what);
        assertEquals(reference.capacity(), tier.capacity(), what);
    }

    private static List<String> keys(Random random, int count) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            keys.add("k" + random.nextInt(24));
        }
        return keys;
    }
}
