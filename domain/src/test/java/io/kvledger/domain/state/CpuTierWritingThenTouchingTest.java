package io.kvledger.domain.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link CpuTier#writingThenTouching} is {@code writing(written).touch(touched)} in one pass: for 3000 seeded
 * tiers and key lists over a small alphabet (so keys are written that the tier holds, touched that it does
 * not, written and touched twice, pinned and ready), the chunks, their stamps, the order and the clock are
 * equal, and so is the least-recently-used order the evictions read.
 */
class CpuTierWritingThenTouchingTest {

    @Test
    void givesWhatWritingThenTouchingGaveForManySeededTiers() {
        int fused = 0;
        for (long seed = 1; seed <= 3000; seed++) {
            Random random = new Random(seed);
            CpuTier tier = CpuTier.empty(64).writing(keys(random, 12)).ready(keys(random, 8)).pin(keys(random, 3))
                    .touch(keys(random, 6));
            List<String> written = keys(random, random.nextInt(6));
            List<String> touched = keys(random, random.nextInt(8));
            boolean writesAHeldKey = tier.holds(written.isEmpty() ? "" : written.get(0));
            CpuTier expected = tier.copy().writing(written).touch(touched);
            CpuTier actual = tier.writingThenTouching(written, touched);
            String what = "seed " + seed + ": written " + written + ", touched " + touched;
            assertEquals(expected.chunks(), actual.chunks(), what);
            assertEquals(expected.evictable(), actual.evictable(), what);
            assertEquals(expected.clock(), actual.clock(), what);
            assertEquals(expected.evictionCandidates(64, java.util.Set.of()),
                    actual.evictionCandidates(64, java.util.Set.of()), what);
            fused += written.stream().anyMatch(touched::contains) && !writesAHeldKey ? 1 : 0;
        }
        assertTrue(fused > 300, "cases where a new chunk is also touched: " + fused);
    }

    private static List<String> keys(Random random, int count) {
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            keys.add("k" + random.nextInt(20));
        }
        return keys;
    }
}
