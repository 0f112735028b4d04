package io.kvledger.domain.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.event.RequestRegistered;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A prompt hashed ahead gives the fold the hashes it would have made: the same hashes and tail for its block size,
 * for prompts of many lengths, also after more tokens are appended, and a fold after the first (on its thread or
 * another) a copy of its own; a fold of another block size hashes for itself; the event keeps the hashed prompt and
 * equals, hashes and prints as the event of the plain tokens.
 */
class HashedPromptTest {

    @Test
    void givenPromptsOfManyLengthsWhenHashedAheadThenTheFoldTakesTheHashesItWouldHaveMade() {
        Random random = new Random(7);
        for (int n = 0; n < 300; n++) {
            int blockSize = 1 + random.nextInt(20);
            List<Integer> tokens = tokens(random, random.nextInt(6 * blockSize));
            HashedPrompt prompt = HashedPrompt.of(tokens, blockSize);

            BlockHashes taken = BlockHashes.of(blockSize, prompt);
            BlockHashes made = BlockHashes.of(blockSize, tokens);
            BlockHashes takenAgain = BlockHashes.of(blockSize, prompt);
            assertNotSame(taken, takenAgain, "a second fold takes a copy of its own");
            assertEquals(taken, takenAgain);
            for (int b = 0; b < taken.fullBlocks(); b++) {
                assertSame(taken.get(b), takenAgain.get(b), "taken, not made again");
            }
            assertEquals(made.hashes(), taken.hashes());
            assertEquals(made.tail(), taken.tail());
            List<Integer> more = tokens(random, random.nextInt(3 * blockSize));
            assertEquals(made.append(more).hashes(), taken.append(more).hashes(), "appending after it");
            assertEquals(tokens, prompt);
            assertEquals(tokens.hashCode(), prompt.hashCode());
        }
    }

    @Test
    void givenOnePromptFoldedOnTwoThreadsWhenEachAppendsItsOwnTokensThenEachHasItsOwnChainedHashes() throws Exception {
        // The simulator's engine and checking thread fold the same RequestRegistered: only the first fold may grow
        // the prompt's array in place, so the other's appends never land in it (nor its in the other's).
        Random random = new Random(13);
        for (int round = 0; round < 300; round++) {
            List<Integer> tokens = tokens(random, 4 + random.nextInt(21)); // a tail of 0 to 3 tokens too
            HashedPrompt prompt = HashedPrompt.of(tokens, 4);
            List<Integer> first = tokens(random, 40);
            List<Integer> second = tokens(random, 40);
            java.util.concurrent.CompletableFuture<BlockHashes> other =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> grown(BlockHashes.of(4, prompt), second));
            BlockHashes mine = grown(BlockHashes.of(4, prompt), first);

            assertEquals(ReferenceChainHash.of(4, joined(tokens, first)), mine.hashes(), "round " + round);
            assertEquals(ReferenceChainHash.of(4, joined(tokens, second)), other.get().hashes(), "round " + round);
        }
    }

    /** {@code hashes} after {@code more}, appended a token at a time as a decode appends them. */
    private static BlockHashes grown(BlockHashes hashes, List<Integer> more) {
        for (Integer token : more) {
            hashes = hashes.append(List.of(token));
        }
        return hashes;
    }

    private static List<Integer> joined(List<Integer> a, List<Integer> b) {
        List<Integer> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    @Test
    void givenAPromptHashedForOneBlockSizeWhenFoldedWithAnotherThenHashedAgainForThatOne() {
        List<Integer> tokens = tokens(new Random(3), 40);
        HashedPrompt prompt = HashedPrompt.of(tokens, 4);

        BlockHashes other = BlockHashes.of(8, prompt);

        assertNotSame(prompt.hashes(4), other);
        assertEquals(BlockHashes.of(8, tokens).hashes(), other.hashes());
        assertEquals(5, other.fullBlocks());
    }

    @Test
    void givenARegisteredEventWithAHashedPromptThenItKeepsItAndReadsAsTheEventOfThePlainTokens() {
        List<Integer> tokens = tokens(new Random(5), 33);
        HashedPrompt prompt = HashedPrompt.of(tokens, 16);

        RequestRegistered hashed = new RequestRegistered("r1", 33, prompt, 64, null, null);
        RequestRegistered plain = new RequestRegistered("r1", 33, tokens, 64, null, null);

        assertSame(prompt, hashed.promptTokens());
        assertEquals(plain, hashed);
        assertEquals(plain.hashCode(), hashed.hashCode());
        assertEquals(plain.toString(), hashed.toString());
    }

    @Test
    void givenACommandOfAHashedPromptThenItKeepsItAndAPlainListIsCopied() {
        List<Integer> tokens = tokens(new Random(9), 20);
        HashedPrompt prompt = HashedPrompt.of(tokens, 16);

        RegisterRequest rebuilt = new RegisterRequest("r1", prompt);
        RegisterRequest plain = new RegisterRequest("r1", tokens);

        assertSame(prompt, rebuilt.promptTokens(), "the audit's rebuilt command keeps the hashed prompt");
        assertNotSame(tokens, plain.promptTokens(), "a caller's own list is copied");
        assertEquals(plain, rebuilt);
        tokens.set(0, -1);
        assertNotEquals(tokens, plain.promptTokens(), "the copy does not follow the caller's list");
    }

    @Test
    void givenPromptsWithAndWithoutNegativeTokensWhenRegisteredHashedThenTheDecisionIsThePlainPromptsOne() {
        Random random = new Random(13);
        EngineState state = EngineState.initial(io.kvledger.domain.config.EngineConfig.DEFAULTS);
        int refused = 0;
        for (int n = 0; n < 400; n++) {
            List<Integer> tokens = tokens(random, 1 + random.nextInt(80));
            if (random.nextBoolean()) {
                tokens.set(random.nextInt(tokens.size()), random.nextBoolean() ? -1 : Integer.MIN_VALUE + random.nextInt(9));
            }
            HashedPrompt prompt = HashedPrompt.of(tokens, 1 + random.nextInt(20));
            assertEquals(tokens.stream().allMatch(token -> token >= 0), prompt.nonNegative(), tokens.toString());
            io.kvledger.domain.decision.Decision plain = io.kvledger.domain.decision.Decider.decide(state,
                    new RegisterRequest("r", tokens, null, null, null));
            io.kvledger.domain.decision.Decision hashed = io.kvledger.domain.decision.Decider.decide(state,
                    new RegisterRequest("r", prompt, null, null, null));
            assertEquals(plain, hashed, "the same refusal, naming the same index, or the same events");
            refused += plain instanceof io.kvledger.domain.decision.Decision.Rejected ? 1 : 0;
        }
        assertTrue(refused > 150 && refused < 250, "refused " + refused + " of 400");
    }

    private static List<Integer> tokens(Random random, int n) {
        List<Integer> tokens = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            tokens.add(random.nextInt(50_000));
        }
        return tokens;
    }
}
