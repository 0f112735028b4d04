package io.kvledger.simulation;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The simulated host's GPU blocks. A block is free or held by one or more requests (GPU prefix
 * caching shares full computed blocks); the most recently freed block is handed out first, so a block
 * released with a store still reading it is soon handed out again, which is the race fences are for.
 * Full computed blocks are indexed by the hash of their token prefix, for GPU prefix hits.
 */
final class BlockPool {

    private final ArrayDeque<Integer> free = new ArrayDeque<>();
    private final int[] holders;
    private final long[] prefixOf;
    private final Map<Long, Integer> byPrefix = new HashMap<>();

    BlockPool(int size) {
        holders = new int[size];
        prefixOf = new long[size];
        for (int block = size - 1; block >= 0; block--) {
            free.push(block);
        }
    }

    int freeCount() {
        return free.size();
    }

    int size() {
        return holders.length;
    }

    /** {@code count} free blocks, now held once each; the caller checks {@link #freeCount()} first. */
    List<Integer> take(int count) {
        List<Integer> blocks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int block = free.pop();
            holders[block] = 1;
            blocks.add(block);
        }
        return blocks;
    }

    /** One more holder of a block another request holds (a GPU prefix hit). */
    void share(int block) {
        if (holders[block] == 0) {
            throw new IllegalStateException("block " + block + " is free and cannot be shared");
        }
        holders[block]++;
    }

    /** One holder lets go; at the last one the block is free and its prefix is forgotten. Returns whether it became free. */
    boolean release(int block) {
        if (holders[block] <= 0) {
            throw new IllegalStateException("block " + block + " is released but nobody holds it");
        }
        if (--holders[block] > 0) {
            return false;
        }
        if (prefixOf[block] != 0) {
            byPrefix.remove(prefixOf[block], block);
            prefixOf[block] = 0;
        }
        free.push(block);
        return true;
    }

    boolean isHeld(int block) {
        return holders[block] > 0;
    }

    /** Records that {@code block} holds the KV of the token prefix hashed {@code prefix} (first come keeps it). */
    void index(int block, long prefix) {
        if (prefixOf[block] == 0 && holders[block] > 0 && !byPrefix.containsKey(prefix)) {
            prefixOf[block] = prefix;
            byPrefix.put(prefix, block);
        }
    }

    /** The block holding the prefix hashed {@code prefix}, or -1. */
    int lookup(long prefix) {
        return byPrefix.getOrDefault(prefix, -1);
    }
}
