package io.kvledger.domain.state;

import java.util.Arrays;
import java.util.HashMap;
import java.util.function.BiConsumer;

/**
 * What an older {@link CpuTier} held for the keys that the step to the next version changed: each key's
 * chunk before the change, or {@link #ABSENT} when it held none. Folding in place turns the version it
 * changed into such an undo, so that version can still be read (and forked) for as long as someone keeps it.
 * A step names a few keys, so they are kept in two arrays and searched in order; a large step (a long
 * prompt's store) indexes them.
 */
final class TierUndo {

    /** Stands for "no chunk" in an undo. */
    static final TierChunk ABSENT = new TierChunk("", false, 0, Long.MIN_VALUE);

    private static final int SEARCHED = 8;

    private String[] keys = new String[4];
    private TierChunk[] before = new TierChunk[4];
    private int size;
    private HashMap<String, Integer> index;

    /** Remembers {@code held} (the chunk before the first change of {@code key} in this step; {@code null} for none). */
    void saw(String key, TierChunk held) {
        if (find(key) >= 0) {
            return;
        }
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            before = Arrays.copyOf(before, size * 2);
        }
        keys[size] = key;
        before[size] = held == null ? ABSENT : held;
        if (index != null) {
            index.put(key, size);
        } else if (size == SEARCHED) {
            index = new HashMap<>();
            for (int i = 0; i <= size; i++) {
                index.put(keys[i], i);
            }
        }
        size++;
    }

    /** The chunk held before this step ({@link #ABSENT} for none), or {@code null} when the step left {@code key} alone. */
    TierChunk get(String key) {
        int at = find(key);
        return at < 0 ? null : before[at];
    }

    void forEach(BiConsumer<String, TierChunk> action) {
        for (int i = 0; i < size; i++) {
            action.accept(keys[i], before[i]);
        }
    }

    boolean isEmpty() {
        return size == 0;
    }

    private int find(String key) {
        if (index != null) {
            Integer at = index.get(key);
            return at == null ? -1 : at;
        }
        for (int i = 0; i < size; i++) {
            if (keys[i].equals(key)) {
                return i;
            }
        }
        return -1;
    }
}
