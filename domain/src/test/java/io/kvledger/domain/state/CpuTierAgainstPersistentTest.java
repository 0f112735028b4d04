package io.kvledger.domain.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The tier that changes in place is the value the persistent one was: over many seeded histories (changes of
 * the newest tier mostly, of an older one now and then: a second branch), every tier made so far, the newest
 * and the old ones, reads as its twin of {@link PersistentCpuTier} reads: its chunks, evictable order, clock,
 * size, each key's chunk, the eviction candidates and the least-recent-first order.
 */
class CpuTierAgainstPersistentTest {

    private record Twin(CpuTier tier, PersistentCpuTier reference) {
    }

    @Test
    void everyVersionOfManySeededHistoriesReadsAsThePersistentTier() {
        int forks = 0;
        for (long seed = 1; seed <= 400; seed++) {
            forks += history(new Random(seed), 120, 0.08);
        }
        assertTrue(forks > 1000, "changes of an older tier: " + forks);
    }

    @Test
    void longLinesReadFarFromTheNewestAndPastTheCopiesOfTheMaps() {
        // Thousands of changes in place: old tiers are read past MAX_HOPS and across the periodic copy.
        for (long seed = 1; seed <= 3; seed++) {
            history(new Random(seed), 9000, 0.002);
        }
    }

    @Test
    void aTierReadOnAnotherThreadWhileItsLineChangesReadsAsItWas() throws Exception {
        Random random = new Random(7);
        List<Twin> made = new ArrayList<>();
        Twin newest = new Twin(CpuTier.empty(64), PersistentCpuTier.empty(64));
        made.add(newest);
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.BlockingQueue<Twin> toRead = new java.util.concurrent.LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try {
                for (Twin twin = toRead.take(); twin.tier() != null; twin = toRead.take()) {
                    same(twin, new Random(twin.reference().clock()), "read on another thread");
                }
            } catch (Throwable e) {
                failures.add(e);
            }
        });
        reader.start();
        for (int i = 0; i < 20000; i++) {
            newest = step(newest, random);
            if (i % 7 == 0) {
                toRead.add(newest);
            }
        }
        toRead.add(new Twin(null, null));
        reader.join();
        assertEquals(List.of(), failures);
    }

    /** A history of {@code steps} changes; returns how many changed an older tier than the newest. */
    private static int history(Random random, int steps, double forkChance) {
        List<Twin> made = new ArrayList<>();
        Twin newest = new Twin(CpuTier.empty(32), PersistentCpuTier.empty(32));
        made.add(newest);
        int forks = 0;
        for (int i = 0; i < steps; i++) {
            Twin from = newest;
            if (random.nextDouble() < forkChance) {
                from = made.get(random.nextInt(made.size()));
                forks += from == newest ? 0 : 1;
            }
            newest = step(from, random);
            made.add(newest);
            if (random.nextInt(4) == 0) {
                Twin old = made.get(random.nextInt(made.size()));
                same(old, random, "an old tier after " + i + " changes");
            }
        }
        for (Twin twin : made.subList(Math.max(0, made.size() - 200), made.size())) {
            same(twin, random, "at the end");
        }
        same(made.get(0), random, "the first");
        return forks;
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
        assertEquals(reference.chunks(), tier.chunks(), what);
        assertEquals(reference.evictable(), tier.evictable(), what);
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
