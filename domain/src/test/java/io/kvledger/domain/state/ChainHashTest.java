package io.kvledger.domain.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * Given requests that share prefixes and repeat blocks after other prefixes, grown in steps of any size, and
 * threads hashing at once, every key is the chained SHA-256 computed from scratch: each call hashes in buffers
 * of its own, so nothing one fold or thread hashes changes a byte of another's keys.
 */
class ChainHashTest {

    @Property(tries = 300)
    void keysAreTheChainedHashesOverSharedPrefixesAndRepeatedBlocks(@ForAll @LongRange(min = 1, max = 1_000_000) long seed) {
        Random random = new Random(seed);
        int blockSize = 1 + random.nextInt(random.nextBoolean() ? 4 : 20);
        // A tiny alphabet makes equal blocks after different previous hashes, and equal prompts, common.
        int alphabet = 1 + random.nextInt(random.nextBoolean() ? 3 : 50_000);
        List<List<Integer>> prefixes = new ArrayList<>();
        for (int p = 0; p < 1 + random.nextInt(4); p++) {
            prefixes.add(tokens(random, random.nextInt(6 * blockSize), alphabet));
        }
        for (int request = 0; request < 30; request++) {
            List<Integer> all = new ArrayList<>(prefixes.get(random.nextInt(prefixes.size())));
            all.addAll(tokens(random, random.nextInt(4 * blockSize), alphabet));
            assertEquals(ReferenceChainHash.of(blockSize, all), grownInSteps(random, blockSize, all).hashes(),
                    "seed " + seed + ", request " + request);
        }
    }

    @Test
    void threadsHashingSharedPrefixesAtOnceEachGetTheChainedKeys() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                Callable<Void> work = () -> {
                    Random random = new Random(thread);
                    List<Integer> shared = tokens(new Random(99), 64, 5);
                    for (int round = 0; round < 2_000; round++) {
                        List<Integer> all = new ArrayList<>(shared.subList(0, random.nextInt(shared.size())));
                        all.addAll(tokens(random, random.nextInt(24), 5));
                        assertEquals(ReferenceChainHash.of(4, all), grownInSteps(random, 4, all).hashes(), "round " + round);
                    }
                    return null;
                };
                done.add(pool.submit(work));
            }
            for (Future<?> each : done) {
                each.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static BlockHashes grownInSteps(Random random, int blockSize, List<Integer> tokens) {
        BlockHashes hashes = BlockHashes.empty(blockSize);
        for (int at = 0; at < tokens.size(); ) {
            int step = Math.min(tokens.size() - at, random.nextInt(3 * blockSize + 1));
            hashes = hashes.append(tokens.subList(at, at + step));
            at += step;
        }
        return hashes;
    }

    private static List<Integer> tokens(Random random, int count, int alphabet) {
        List<Integer> tokens = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            tokens.add(alphabet > 10 && random.nextInt(8) == 0 ? random.nextInt() : random.nextInt(alphabet));
        }
        return tokens;
    }
}
