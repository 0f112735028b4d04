package io.kvledger.domain.state;

import io.vavr.collection.Vector;

/**
 * The block tables and store cursors of a request's groups after the first (contract section 7.1), for
 * an engine of two groups or more; group 0's are the request's own {@code blockTable} and {@code cursor}.
 * A table entry may be {@code null}: a sliding-window position the host does not back, or freed.
 *
 * @param tables  groups 1 .. G-1's tables, in group order
 * @param cursors groups 1 .. G-1's cursors {@code s_g}
 */
public record GroupTables(Vector<Vector<Integer>> tables, Vector<Integer> cursors) {

    /** Empty tables and cursors at 0 for groups 1 .. {@code groupCount}-1. */
    public static GroupTables empty(int groupCount) {
        Vector<Vector<Integer>> tables = Vector.empty();
        Vector<Integer> cursors = Vector.empty();
        for (int g = 1; g < groupCount; g++) {
            tables = tables.append(Vector.empty());
            cursors = cursors.append(0);
        }
        return new GroupTables(tables, cursors);
    }

    public GroupTables withTable(int g, Vector<Integer> table) {
        return new GroupTables(tables.update(g - 1, table), cursors);
    }

    public GroupTables withCursor(int g, int cursor) {
        return new GroupTables(tables, cursors.update(g - 1, cursor));
    }
}
