package io.kvledger.domain.state;

import java.util.Arrays;
import java.util.List;

/**
 * The block tables and store cursors of a request's groups after the first (contract section 7.1), for
 * an engine of two groups or more; group 0's are the request's own {@code blockTable} and {@code cursor}.
 * A table entry may be {@code null}: a sliding-window position the host does not back, or freed.
 * A change copies the two short lists (one entry per group).
 *
 * @param tables  groups 1 .. G-1's tables, in group order
 * @param cursors groups 1 .. G-1's cursors {@code s_g}
 */
public record GroupTables(List<BlockTable> tables, List<Integer> cursors) {

    public GroupTables {
        tables = List.copyOf(tables);
        cursors = ONE_CURSOR.shared(List.copyOf(cursors));
    }

    /**
     * The cursor lists of a two-group engine, one per value below 4096, built once and shared: a decode step reads
     * every request's second cursor, and a list of its own, allocated when the cursor last moved, missed the cache
     * for each request (FULL + SWA step 0.92x to 0.96x with them shared, {@code PairedStepCpuTime}).
     */
    private static final OneCursorLists ONE_CURSOR = new OneCursorLists(4096);

    private static final class OneCursorLists {
        /** The list of each value; never written after the constructor. A loop, not a stream: built at start-up. */
        private final Object[] lists;

        OneCursorLists(int values) {
            lists = new Object[values];
            for (int value = 0; value < values; value++) {
                lists[value] = List.of(value);
            }
        }

        /** The shared list equal to {@code cursors} when there is one, else {@code cursors}. */
        @SuppressWarnings("unchecked")
        List<Integer> shared(List<Integer> cursors) {
            if (cursors.size() == 1) {
                int cursor = cursors.get(0);
                if (cursor >= 0 && cursor < lists.length) {
                    return (List<Integer>) lists[cursor];
                }
            }
            return cursors;
        }
    }

    /** Empty tables and cursors at 0 for groups 1 .. {@code groupCount}-1. */
    public static GroupTables empty(int groupCount) {
        BlockTable[] tables = new BlockTable[groupCount - 1];
        Integer[] cursors = new Integer[groupCount - 1];
        Arrays.fill(tables, BlockTable.EMPTY);
        Arrays.fill(cursors, 0);
        return new GroupTables(List.of(tables), List.of(cursors));
    }

    public GroupTables withTable(int g, BlockTable table) {
        BlockTable[] next = tables.toArray(new BlockTable[0]);
        next[g - 1] = table;
        return new GroupTables(List.of(next), cursors);
    }

    /** As the record of Vavr vectors wrote itself: the state's text ({@code EngineState.toString}) stays as it was. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("GroupTables[tables=Vector(");
        for (int i = 0; i < tables.size(); i++) {
            text.append(i == 0 ? "" : ", ").append(tables.get(i));
        }
        text.append("), cursors=Vector(");
        for (int i = 0; i < cursors.size(); i++) {
            text.append(i == 0 ? "" : ", ").append(cursors.get(i));
        }
        return text.append(")]").toString();
    }

    public GroupTables withCursor(int g, int cursor) {
        Integer[] next = cursors.toArray(new Integer[0]);
        next[g - 1] = cursor;
        return new GroupTables(tables, List.of(next));
    }
}
