package io.kvledger.domain.state;

import java.util.HashMap;

/**
 * What an older {@link CpuTier} held for the keys that the step to the next version changed: each key's
 * chunk before the change, or {@link #ABSENT} when it held none. Folding in place turns the version it
 * changed into such an undo, so that version can still be read (and forked) for as long as someone keeps it.
 */
final class TierUndo {

    /** Stands for "no chunk" in an undo. */
    static final TierChunk ABSENT = new TierChunk("", false, 0, Long.MIN_VALUE);

    final HashMap<String, TierChunk> before = new HashMap<>();

    /** Remembers {@code held} (the chunk before the first change of {@code key} in this step; {@code null} for none). */
    void saw(String key, TierChunk held) {
        before.putIfAbsent(key, held == null ? ABSENT : held);
    }

    boolean isEmpty() {
        return before.isEmpty();
    }
}
