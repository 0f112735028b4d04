package io.kvledger.domain.state;

import java.util.Map;
import java.util.TreeMap;

/**
 * The CPU tier's chunks as plain mutable maps: what the newest {@link CpuTier} of a line of versions reads
 * and changes in place. Older versions of the line reach it through the {@link TierUndo}s that lead to it.
 * Package-private: only {@code CpuTier} touches it, under its line's lock.
 */
final class TierTable {

    final java.util.HashMap<String, TierChunk> chunks;
    /** Touch stamp to key of the evictable chunks (ready and unpinned), least recent first. */
    final TreeMap<Long, String> evictable;
    /** Versions made in place since this table was copied (bounds what an old version can keep alive). */
    int changesSinceCopy;

    TierTable() {
        this(new java.util.HashMap<>(), new TreeMap<>());
    }

    private TierTable(java.util.HashMap<String, TierChunk> chunks, TreeMap<Long, String> evictable) {
        this.chunks = chunks;
        this.evictable = evictable;
    }

    TierTable copy() {
        return new TierTable(new java.util.HashMap<>(chunks), new TreeMap<>(evictable));
    }

    /** Puts {@code chunk} (or removes {@code key}'s chunk, for {@code null}), keeping the evictable order. */
    void set(String key, TierChunk chunk) {
        TierChunk held = chunk == null ? chunks.remove(key) : chunks.put(key, chunk);
        if (held != null && held.evictable()) {
            evictable.remove(held.touched());
        }
        if (chunk != null && chunk.evictable()) {
            evictable.put(chunk.touched(), key);
        }
    }

    /** Sets each key of {@code values} to its value ({@link TierUndo#ABSENT} removes it). */
    void setAll(Map<String, TierChunk> values) {
        for (Map.Entry<String, TierChunk> entry : values.entrySet()) {
            set(entry.getKey(), entry.getValue() == TierUndo.ABSENT ? null : entry.getValue());
        }
    }
}
