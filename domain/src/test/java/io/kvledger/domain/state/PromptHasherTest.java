package io.kvledger.domain.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

/**
 * A hasher that remembers the blocks it made gives every prompt the chained hashes of the reference, over prompts
 * that share prefixes, repeat blocks after other prefixes, overflow its memo and change block size; a block made
 * again is the remembered string itself; a block the memo cannot hold is made all the same.
 */
class PromptHasherTest {

    @Property(tries = 40)
    void givenPromptsThatSharePrefixesWhenHashedByOneHasherThenEachHasTheReferenceHashes(
            @ForAll @LongRange(min = 1, max = 1_000_000) long seed) {
        Random random = new Random(seed);
        PromptHasher hasher = new PromptHasher();
        List<List<Integer>> prefixes = new ArrayList<>();
        for (int p = 0; p < 4; p++) {
            prefixes.add(tokens(random, random.nextInt(40)));
        }
        for (int n = 0; n < 60; n++) {
            // A block size now and then changes, as a log's new configuration would.
            int blockSize = n % 20 == 0 || random.nextInt(10) == 0 ? 1 + random.nextInt(8) : 4;
            List<Integer> prompt = new ArrayList<>(prefixes.get(random.nextInt(prefixes.size())));
            prompt.addAll(tokens(random, random.nextInt(30)));

            HashedPrompt hashed = hasher.hash(prompt, blockSize);

            BlockHashes hashes = hashed.hashes(blockSize);
            assertEquals(ReferenceChainHash.of(blockSize, prompt), hashes.hashes(), "prompt " + n + ", blocks of " + blockSize);
            assertEquals(prompt.subList(prompt.size() - prompt.size() % blockSize, prompt.size()), hashes.tail());
            assertEquals(prompt, hashed);
        }
    }

    @Test
    void givenAPromptWhosePrefixWasHashedWhenHashedThenThePrefixBlocksAreTheRememberedStrings() {
        PromptHasher hasher = new PromptHasher();
        List<Integer> first = List.of(1, 2, 3, 4, 5, 6, 7, 8, 9);
        List<Integer> second = List.of(1, 2, 3, 4, 5, 6, 70, 80, 90);

        List<String> a = hasher.hash(first, 3).hashes(3).hashes();
        List<String> b = hasher.hash(second, 3).hashes(3).hashes();

        assertSame(a.get(0), b.get(0));
        assertSame(a.get(1), b.get(1));
        assertNotEquals(a.get(2), b.get(2));
        assertEquals(ReferenceChainHash.of(3, second), b);
    }

    @Test
    void givenManyBlocksAfterOnePrefixAndOneBlockAfterManyPrefixesWhenHashedThenNoneIsTakenForAnother() {
        // More blocks than the memo has slots, so slots are shared: a block is taken only when both its previous
        // hash and its tokens are the remembered block's. The first loop would catch a memo that did not compare
        // tokens, the second one that did not compare the previous hash.
        PromptHasher hasher = new PromptHasher();
        for (int next = 0; next < 10_000; next++) {
            List<Integer> prompt = List.of(7, 7, next, next + 1);
            assertEquals(ReferenceChainHash.of(2, prompt), hasher.hash(prompt, 2).hashes(2).hashes(), "block " + next);
        }
        for (int first = 0; first < 10_000; first++) {
            List<Integer> prompt = List.of(first, first + 1, 7, 7);
            assertEquals(ReferenceChainHash.of(2, prompt), hasher.hash(prompt, 2).hashes(2).hashes(), "prefix " + first);
        }
    }

    @Test
    void givenBlocksTooLongToRememberWhenHashedTwiceThenBothHaveTheReferenceHashes() {
        PromptHasher hasher = new PromptHasher();
        Random random = new Random(3);
        int blockSize = (1 << 14) + 1;
        List<Integer> prompt = tokens(random, 2 * blockSize + 5);
        List<String> expected = ReferenceChainHash.of(blockSize, prompt);

        assertEquals(expected, hasher.hash(prompt, blockSize).hashes(blockSize).hashes());
        assertEquals(expected, hasher.hash(prompt, blockSize).hashes(blockSize).hashes());
    }

    private static List<Integer> tokens(Random random, int count) {
        List<Integer> tokens = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            tokens.add(random.nextInt(6)); // few distinct tokens: blocks repeat after different prefixes
        }
        return tokens;
    }
}
