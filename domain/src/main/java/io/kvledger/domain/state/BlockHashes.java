package io.kvledger.domain.state;

import io.kvledger.containers.AppendOnlyList;
import java.util.List;

/**
 * One hash per full GPU block of known tokens, each chained to the previous one, so two requests with
 * the same token prefix get the same hashes for it. Deterministic: no salt. Only the tokens of the
 * unfinished last block are kept, so memory grows with blocks, not tokens.
 *
 * <p>Immutable, and cheap to move forward: the hashes are an {@link AppendOnlyList} (a new version
 * shares the older one's array), the tail a copy of at most {@code blockSize} ints; a call that
 * completes no block allocates only the new tail. (Both are {@code List}s, so a snapshot writes them as
 * the arrays it always did.)
 *
 * @param hashes one per full block, in block order
 * @param tail   the tokens of the unfinished last block (fewer than {@code blockSize})
 */
public record BlockHashes(int blockSize, List<String> hashes, List<Integer> tail) {

    public BlockHashes {
        if (blockSize < 1) {
            throw new IllegalArgumentException("blockSize must be at least 1, was " + blockSize);
        }
        hashes = hashes instanceof AppendOnlyList<String> own ? own : AppendOnlyList.of(hashes);
        tail = tail instanceof IntTail own ? own : IntTail.of(tail);
        if (tail.size() >= blockSize) {
            throw new IllegalArgumentException("a tail holds fewer than blockSize tokens, was " + tail.size());
        }
    }

    public static BlockHashes empty(int blockSize) {
        return new BlockHashes(blockSize, AppendOnlyList.empty(), IntTail.EMPTY);
    }

    /** The hashes of {@code tokens}; a {@link HashedPrompt} of this block size gives those it holds. */
    public static BlockHashes of(int blockSize, List<Integer> tokens) {
        if (tokens instanceof HashedPrompt prompt) {
            BlockHashes made = prompt.hashes(blockSize);
            if (made != null) {
                return made;
            }
        }
        return empty(blockSize).append(tokens);
    }

    /** {@link #of} by {@code hasher}, which remembers the blocks it made ({@link PromptHasher}; {@code null}: none). */
    static BlockHashes of(int blockSize, List<Integer> tokens, ChainHash hasher) {
        return empty(blockSize).append(tokens, hasher);
    }

    /** The hashes after {@code tokens} are appended to the known tokens; this one is left as it was. */
    public BlockHashes append(List<Integer> tokens) {
        return append(tokens, null);
    }

    private BlockHashes append(List<Integer> tokens, ChainHash hasher) {
        if (tokens.isEmpty()) {
            return this;
        }
        IntTail oldTail = (IntTail) tail;
        int known = oldTail.size() + tokens.size();
        int completed = known / blockSize;
        if (completed == 0) {
            return new BlockHashes(blockSize, hashes, oldTail.plus(tokens));
        }
        String[] made = hasher == null ? ChainHash.blocks(lastHash(), oldTail, tokens, blockSize, completed)
                : hasher.chain(lastHash(), oldTail, tokens, blockSize, completed);
        int[] rest = new int[known - completed * blockSize];
        for (int i = 0; i < rest.length; i++) {
            rest[i] = tokens.get(tokens.size() - rest.length + i);
        }
        return new BlockHashes(blockSize, ((AppendOnlyList<String>) hashes).plus(made), IntTail.wrap(rest));
    }

    /** The same hashes and tail in an array of their own: appending to either never touches the other's array. */
    BlockHashes copy() {
        return new BlockHashes(blockSize, AppendOnlyList.of(hashes), tail);
    }

    public int fullBlocks() {
        return hashes.size();
    }

    public String get(int block) {
        return hashes.get(block);
    }

    private String lastHash() {
        return hashes.isEmpty() ? "" : hashes.get(hashes.size() - 1);
    }
}
