package io.kvledger.domain.state;

import java.util.AbstractList;
import java.util.List;
import java.util.RandomAccess;

/** The tokens of a request's unfinished last block: fewer than a block, so copied whole on every change. */
final class IntTail extends AbstractList<Integer> implements RandomAccess {

    static final IntTail EMPTY = new IntTail(new int[0]);

    private final int[] tokens;

    private IntTail(int[] tokens) {
        this.tokens = tokens;
    }

    /** Takes {@code tokens} as they are: the caller hands them over and never writes them again. */
    static IntTail wrap(int[] tokens) {
        return tokens.length == 0 ? EMPTY : new IntTail(tokens);
    }

    static IntTail of(List<Integer> values) {
        int[] tokens = new int[values.size()];
        for (int i = 0; i < tokens.length; i++) {
            tokens[i] = values.get(i);
        }
        return wrap(tokens);
    }

    /** These tokens followed by {@code more}, which complete no block. */
    IntTail plus(List<Integer> more) {
        int[] joined = java.util.Arrays.copyOf(tokens, tokens.length + more.size());
        for (int i = 0; i < more.size(); i++) {
            joined[tokens.length + i] = more.get(i);
        }
        return new IntTail(joined);
    }

    int token(int index) {
        return tokens[index];
    }

    @Override
    public Integer get(int index) {
        return tokens[index];
    }

    @Override
    public int size() {
        return tokens.length;
    }
}
