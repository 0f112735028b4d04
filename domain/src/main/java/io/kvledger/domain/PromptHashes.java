package io.kvledger.domain;

import io.kvledger.domain.state.BlockHashes;
import java.util.List;

/**
 * The hashes of a registered prompt, made once per registration. Audit folds a registration twice,
 * the log's event and the decider's own, and both carry the very same immutable token list (an event
 * copies its tokens with {@code List.copyOf}, which keeps an immutable list as it is), so the last
 * prompt hashed is remembered by identity. {@code BlockHashes} is immutable, so sharing it between the
 * two states changes neither.
 */
final class PromptHashes {

    private record Last(List<Integer> tokens, int blockSize, BlockHashes hashes) {
    }

    private static volatile Last last;

    private PromptHashes() {
    }

    /** @param promptTokens an immutable list (an event's) */
    static BlockHashes of(int blockSize, List<Integer> promptTokens) {
        Last remembered = last;
        if (remembered != null && remembered.tokens() == promptTokens && remembered.blockSize() == blockSize) {
            return remembered.hashes();
        }
        BlockHashes hashes = BlockHashes.of(blockSize, promptTokens);
        last = new Last(promptTokens, blockSize, hashes);
        return hashes;
    }
}
