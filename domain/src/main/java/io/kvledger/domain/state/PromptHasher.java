package io.kvledger.domain.state;

import java.util.List;

/**
 * Hashes prompts on one thread (a log's parse thread, a host's), remembering the blocks it hashed lately, so
 * prompts that share a prefix (a system prompt, a conversation's earlier turns) hash it once: the next prompt's
 * blocks of that prefix are the same strings, made without SHA-256. Nearly half the prompt blocks of a simulated
 * log repeat one made lately (docs/performance.md, "C1's own costs, and prompts that share a prefix").
 *
 * <p>The hashes are those {@link BlockHashes#of} makes, so a {@link HashedPrompt} from here folds as any other.
 * Not thread-safe: each thread that hashes has its own hasher; nothing is static. Its memory is bounded (about a
 * megabyte of tokens and 4,096 blocks' hashes at most), whatever it hashes.
 */
public final class PromptHasher {

    private final ChainHash hasher = ChainHash.remembering();

    /** {@code tokens} hashed in blocks of {@code blockSize}, as {@link HashedPrompt#of(List, int)} hashes them. */
    public HashedPrompt hash(List<Integer> tokens, int blockSize) {
        return HashedPrompt.of(tokens, blockSize, hasher);
    }
}
