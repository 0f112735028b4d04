package io.kvledger.domain.state;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;
import java.util.concurrent.atomic.AtomicBoolean;

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
    /** Whether every token is {@code >= 0}, found where the prompt is hashed, so a decision need not walk it again. */
    private final boolean nonNegative;
    /**
     * Whether a fold took {@link #hashes} as they are. That fold appends to their array in place (the containers'
     * protocol, for one thread); every later fold, on its thread or another (the simulator's engine and checking
     * thread fold the same event), takes a copy, so no two folds grow one array.
     */
    private final AtomicBoolean taken = new AtomicBoolean();

    private HashedPrompt(List<Integer> tokens, BlockHashes hashes) {
        this.tokens = tokens;
        this.hashes = hashes;
        int signs = 0;
        for (int i = 0; i < tokens.size(); i++) {
            signs |= tokens.get(i);
        }
        this.nonNegative = signs >= 0;
    }

    /**
     * {@code tokens} hashed in blocks of {@code blockSize}. The hashes are made on this thread and never used here
     * again; the folds that take them come after, through a queue or a step's hand-over.
     */
    public static HashedPrompt of(List<Integer> tokens, int blockSize) {
        return of(tokens, blockSize, null);
    }

    /**
     * {@link #of}, the hashes made by {@code hasher}, which remembers blocks of its thread's earlier prompts
     * ({@code null}: hashed afresh).
     */
    static HashedPrompt of(List<Integer> tokens, int blockSize, ChainHash hasher) {
        List<Integer> own = tokens instanceof HashedPrompt hashed ? hashed.tokens : List.copyOf(tokens);
        return new HashedPrompt(own, BlockHashes.of(blockSize, own, hasher));
    }

    /**
     * The hashes for {@code blockSize}, or {@code null} when these were made for another: to the first fold that asks
     * the hashes themselves, to any other a copy of its own.
     */
    BlockHashes hashes(int blockSize) {
        if (hashes.blockSize() != blockSize) {
            return null;
        }
        return taken.compareAndSet(false, true) ? hashes : hashes.copy();
    }

    /** Whether every token is {@code >= 0} (none is {@code null}: the tokens are an immutable copy). */
    public boolean nonNegative() {
        return nonNegative;
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
