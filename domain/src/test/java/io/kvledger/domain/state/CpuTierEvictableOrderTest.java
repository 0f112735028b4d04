package io.kvledger.domain.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The tier keeps only its evictable chunks (ready, unpinned) in least-recently-used order. Over 2000 seeded
 * runs of 60 random operations each (writes, touches, readiness, pins and unpins, removals, clears) on a small
 * alphabet, after every operation that order is exactly the evictable chunks by stamp, and the eviction
 * candidates are what walking every chunk by stamp and skipping the others gives (the rule as written).
 */
class CpuTierEvictableOrderTest {

    @Test
    void theEvictableOrderIsDerivedFromTheChunksAfterEveryOperation() {
        int evictions = 0;
        for (long seed = 1; seed <= 2000; seed++) {
            Random random = new Random(seed);
            CpuTier tier = CpuTier.empty(32);
            List<String> done = new ArrayList<>();
            for (int step = 0; step < 60; step++) {
                List<String> keys = keys(random, 1 + random.nextInt(5));
                int op = random.nextInt(20);
                tier = switch (op) {
                    case 0, 1, 2 -> tier.writing(keys);
                    case 3, 4 -> tier.touch(keys);
                    case 5, 6 -> tier.writingThenTouching(keys, keys(random, random.nextInt(4)));
                    case 7, 8, 9, 10 -> tier.ready(keys);
                    case 11, 12 -> tier.pin(keys);
                    case 13, 14, 15 -> tier.unpin(keys);
                    case 16, 17 -> tier.remove(keys);
                    case 18 -> random.nextInt(4) == 0 ? tier.cleared() : tier;
                    default -> tier.ready(keys).unpin(keys);
                };
                done.add(op + " " + keys);
                String what = "seed " + seed + " after " + done;
                assertEquals(derivedOrder(tier), tier.evictable(), what);
                Set<String> offered = new HashSet<>(keys(random, random.nextInt(3)));
                int wanted = random.nextInt(6);
                List<String> expected = candidatesByWalkingEveryChunk(tier, wanted, offered);
                assertEquals(expected, tier.evictionCandidates(wanted, offered), what + ", offered " + offered);
                evictions += expected.size();
            }
        }
        assertTrue(evictions > 20_000, "eviction candidates found: " + evictions);
    }

    private static SortedMap<Long, String> derivedOrder(CpuTier tier) {
        SortedMap<Long, String> order = new TreeMap<>();
        for (TierChunk chunk : tier.chunks().values()) {
            if (chunk.evictable()) {
                order.put(chunk.touched(), chunk.key());
            }
        }
        return order;
    }

    private static List<String> candidatesByWalkingEveryChunk(CpuTier tier, int count, Set<String> protectedKeys) {
        return tier.chunks().values().stream()
                .sorted(Comparator.comparingLong(TierChunk::touched))
                .filter(chunk -> chunk.evictable() && !protectedKeys.contains(chunk.key()))
                .map(TierChunk::key)
                .limit(count)
                .toList();
    }

    private static List<String> keys(Random random, int count) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            keys.add("k" + random.nextInt(12));
        }
        return keys;
    }
}
