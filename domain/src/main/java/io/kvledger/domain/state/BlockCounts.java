package io.kvledger.domain.state;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A multiset of GPU block ids, for taking some blocks out of a table in one pass: linear in the table
 * and the blocks taken, where removing them from a list one at a time is quadratic.
 */
public final class BlockCounts {

    private final Map<Integer, int[]> counts;

    private BlockCounts(int expected) {
        counts = new HashMap<>(Math.max(16, expected * 4 / 3 + 1));
    }

    public static BlockCounts of(Iterable<Integer> blocks, int expected) {
        BlockCounts multiset = new BlockCounts(expected);
        for (Integer block : blocks) {
            multiset.counts.computeIfAbsent(block, b -> new int[1])[0]++;
        }
        return multiset;
    }

    public boolean isEmpty() {
        return counts.isEmpty();
    }

    /** Takes one occurrence of {@code block} out; {@code false} when none is left. */
    public boolean takeOne(Integer block) {
        int[] count = counts.get(block);
        if (count == null) {
            return false;
        }
        if (--count[0] == 0) {
            counts.remove(block);
        }
        return true;
    }

    /**
     * {@code table} without one occurrence of each of {@code removed}, first occurrences first, keeping
     * the order: what removing them from a list one by one gives. The whole table and a prefix of it,
     * which are what releases name, take no hashing and no copy.
     */
    public static BlockTable remove(BlockTable table, List<Integer> removed) {
        if (removed.isEmpty()) {
            return table;
        }
        if (removed.size() <= table.size() && isPrefix(table, removed)) {
            return table.drop(removed.size());
        }
        BlockCounts taken = of(removed, removed.size());
        java.util.ArrayList<Integer> left = new java.util.ArrayList<>(table.size());
        for (int i = 0; i < table.size(); i++) {
            Integer block = table.get(i);
            if (taken.isEmpty() || !taken.takeOne(block)) {
                left.add(block);
            }
        }
        return BlockTable.of(left);
    }

    private static boolean isPrefix(BlockTable table, List<Integer> removed) {
        for (int i = 0; i < removed.size(); i++) {
            Integer block = removed.get(i);
            if (block == null ? !table.isNull(i) : !table.isBlock(i, block)) {
                return false;
            }
        }
        return true;
    }
}
