package io.kvledger.domain.state;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/**
 * A prompt's tokens with their block hashes made already, for one block size: an immutable list of the tokens
 * (equal to any list of the same tokens) that {@link BlockHashes#of} answers from instead of hashing again.
 *
 * <p>Why: hashing a prompt (SHA-256 per block) is the largest part of folding a log under C1. A log tool reads
 * its log on a second thread ({@code ParseAhead}), which hashes each registered prompt there and hands the fold
 * this list in the event; the fold's own thread then only takes the hashes. They are the hashes
 * {@code BlockHashes.of} would make (the same code makes them), so nothing the fold decides changes.
 */
public final class HashedPrompt extends AbstractList<Integer> implements RandomAccess {

    private final List<Integer> tokens;
    private final BlockHashes hashes;

    private HashedPrompt(List<Integer> tokens, BlockHashes hashes) {
        this.tokens = tokens;
        this.hashes = hashes;
    }

    /**
     * {@code tokens} hashed in blocks of {@code blockSize}. The hashes are handed to one thread that folds (and
     * appends to them) after this one: made on one thread, given over through a queue, never used here again.
     */
    public static HashedPrompt of(List<Integer> tokens, int blockSize) {
        List<Integer> own = tokens instanceof HashedPrompt hashed ? hashed.tokens : List.copyOf(tokens);
        return new HashedPrompt(own, BlockHashes.of(blockSize, own));
    }

    /** {@link #of}, the hashes made by {@code hasher}, which remembers blocks of its thread's earlier prompts. */
    static HashedPrompt of(List<Integer> tokens, int blockSize, ChainHash hasher) {
        List<Integer> own = tokens instanceof HashedPrompt hashed ? hashed.tokens : List.copyOf(tokens);
        return new HashedPrompt(own, BlockHashes.of(blockSize, own, hasher));
    }

    /** The hashes for {@code blockSize}, or {@code null} when these were made for another. */
    BlockHashes hashes(int blockSize) {
        return hashes.blockSize() == blockSize ? hashes : null;
    }

    @Override
    public Integer get(int index) {
        return tokens.get(index);
    }

    @Override
    public int size() {
        return tokens.size();
    }
}
