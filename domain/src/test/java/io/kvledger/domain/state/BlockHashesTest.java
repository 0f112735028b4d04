package io.kvledger.domain.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Given tokens appended in any split, when the hashes are made, then they are exactly the chained
 * SHA-256 keys the logs have always carried, and a version that was grown from never changes.
 */
class BlockHashesTest {

    @Test
    void hashesAreTheChainedKeysWhateverTheSplit() throws Exception {
        Random random = new Random(9);
        for (int round = 0; round < 400; round++) {
            int blockSize = 1 + random.nextInt(20);
            List<Integer> tokens = randomTokens(random, random.nextInt(300));
            BlockHashes hashes = BlockHashes.empty(blockSize);
            for (int at = 0; at < tokens.size(); ) {
                int step = Math.min(tokens.size() - at, random.nextInt(3 * blockSize + 1));
                hashes = hashes.append(tokens.subList(at, at + step));
                at += step;
            }
            List<String> expected = ReferenceChainHash.of(blockSize, tokens);
            assertEquals(expected, hashes.hashes());
            assertEquals(tokens.subList(expected.size() * blockSize, tokens.size()), hashes.tail());
            assertEquals(BlockHashes.of(blockSize, tokens), hashes);
        }
    }

    @Test
    void theFirstKeyOfAKnownPromptIsStable() {
        // A key of the shared examples' logs: it must never change, or old logs stop matching.
        BlockHashes hashes = BlockHashes.of(4, List.of(1, 2, 3, 4, 5));
        assertEquals(ReferenceChainHash.one("", List.of(1, 2, 3, 4)), hashes.get(0));
        assertTrue(hashes.get(0).matches("[0-9a-f]{32}"), hashes.get(0));
    }

    @Test
    void growingTwoVersionsFromOneLeavesEveryVersionAsItWas() throws Exception {
        Random random = new Random(11);
        for (int round = 0; round < 200; round++) {
            int blockSize = 1 + random.nextInt(8);
            BlockHashes base = BlockHashes.of(blockSize, randomTokens(random, random.nextInt(50)));
            List<String> baseHashes = List.copyOf(base.hashes());
            List<Integer> a = randomTokens(random, random.nextInt(40));
            List<Integer> b = randomTokens(random, random.nextInt(40));
            BlockHashes first = base.append(a);
            BlockHashes second = base.append(b);
            BlockHashes firstAgain = first.append(b);
            assertEquals(baseHashes, base.hashes());
            assertEquals(rebuilt(blockSize, base, a), first);
            assertEquals(rebuilt(blockSize, base, b), second);
            assertEquals(first.hashes(), firstAgain.hashes().subList(0, first.fullBlocks()));
            assertEquals(rebuilt(blockSize, first, b), firstAgain);
        }
    }

    @Test
    void threadsGrowingOneVersionAtOnceEachGetTheirOwnHashes() throws Exception {
        BlockHashes base = BlockHashes.of(2, List.of(1, 2, 3, 4, 5));
        int threads = 4;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 200; round++) {
                java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
                List<java.util.concurrent.Future<BlockHashes>> grown = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    List<Integer> more = List.of(100 * t + round, 7, 8, 9, t);
                    grown.add(pool.submit(() -> {
                        start.await();
                        return base.append(more);
                    }));
                }
                start.countDown();
                for (int t = 0; t < threads; t++) {
                    assertEquals(rebuilt(2, base, List.of(100 * t + round, 7, 8, 9, t)), grown.get(t).get());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(BlockHashes.of(2, List.of(1, 2, 3, 4, 5)), base);
    }

    @Test
    void aCopyMadeFromPlainListsIsEqualAndGrowsTheSame() {
        BlockHashes made = BlockHashes.of(3, List.of(5, 6, 7, 8, 9, 10, 11));
        BlockHashes copy = new BlockHashes(3, new ArrayList<>(made.hashes()), new ArrayList<>(made.tail()));
        assertEquals(made, copy);
        assertEquals(made.hashCode(), copy.hashCode());
        assertEquals(made.append(List.of(12, 13)), copy.append(List.of(12, 13)));
    }

    private static BlockHashes rebuilt(int blockSize, BlockHashes base, List<Integer> more) {
        List<Integer> all = new ArrayList<>(base.tail());
        all.addAll(more);
        BlockHashes fresh = new BlockHashes(blockSize, new ArrayList<>(base.hashes()), List.of());
        return fresh.append(all);
    }

    private static List<Integer> randomTokens(Random random, int count) {
        List<Integer> tokens = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            tokens.add(random.nextInt(4) == 0 ? random.nextInt() : random.nextInt(50_000));
        }
        return tokens;
    }
}
