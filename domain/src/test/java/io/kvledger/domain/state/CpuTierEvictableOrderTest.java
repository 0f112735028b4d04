package io.kvledger.domain.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The tier's order is every chunk it holds by stamp, kept as a linked list. Over 2000 seeded runs of 60 random
 * operations each (writes, touches, readiness, pins and unpins, removals, clears) on a small alphabet, after
 * every operation its evictable order is exactly the evictable chunks (ready, unpinned) by stamp, its chunk
 * list is every chunk by stamp, and the eviction candidates are what sorting every chunk by stamp and skipping
 * the others gives (the rule as written).
 */
class CpuTierEvictableOrderTest {

    @Test
    void theEvictableOrderIsDerivedFromTheChunksAfterEveryOperation() {
        int evictions = 0;
        for (long seed = 1; seed <= 2000; seed++) {
            Random random = new Random(seed);
            CpuTier tier = CpuTier.empty(32);
            List<String> done = new ArrayList<>();
            int mostHeld = 0;
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
                assertEquals(byStamp(tier), tier.chunkList(), what);
                assertEquals(tier.evictable().size(), tier.evictableCount(), what);
                mostHeld = tier.slotsUsed() == 0 ? 0 : Math.max(mostHeld, tier.size()); // 0 after a clear
                assertTrue(tier.slotsUsed() <= mostHeld, what + ": a removed chunk's slot is taken again");
                List<TierChunk> shuffled = new ArrayList<>(tier.chunkList());
                Collections.shuffle(shuffled, random);
                CpuTier restored = CpuTier.of(32, shuffled, tier.clock());
                assertEquals(tier, restored, what);
                assertEquals(tier.chunkList(), restored.chunkList(), what + ": a snapshot's chunks put in stamp order");
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

    private static List<TierChunk> byStamp(CpuTier tier) {
        return tier.chunks().values().stream().sorted(Comparator.comparingLong(TierChunk::touched)).toList();
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
