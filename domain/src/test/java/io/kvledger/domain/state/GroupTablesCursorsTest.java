package io.kvledger.domain.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A two-group request's cursor list is shared by every request at the same cursor (below 4096), so a decode step's
 * reads of the second cursor stay in the cache; values, equality and the other shapes are as before.
 */
class GroupTablesCursorsTest {

    @Test
    void twoGroupTablesAtTheSameCursorShareOneList() {
        GroupTables a = GroupTables.empty(2).withCursor(1, 37);
        GroupTables b = GroupTables.empty(2).withTable(1, BlockTable.EMPTY).withCursor(1, 37);
        assertSame(a.cursors(), b.cursors());
        assertEquals(List.of(37), a.cursors());
        assertSame(a.cursors(), a.withTable(1, BlockTable.EMPTY).cursors(), "a table's change keeps the shared list");
        assertSame(GroupTables.empty(2).cursors(), new GroupTables(List.of(BlockTable.EMPTY), new ArrayList<>(List.of(0))).cursors());
    }

    @Test
    void otherCursorsAndShapesKeepListsOfTheirOwnWithTheSameValues() {
        GroupTables far = GroupTables.empty(2).withCursor(1, 5000);
        assertEquals(List.of(5000), far.cursors());
        assertNotSame(far.cursors(), GroupTables.empty(2).withCursor(1, 5000).cursors());
        GroupTables three = GroupTables.empty(3).withCursor(2, 4);
        assertEquals(List.of(0, 4), three.cursors());
        assertEquals(GroupTables.empty(2).withCursor(1, 9), new GroupTables(List.of(BlockTable.EMPTY), List.of(9)));
        assertThrows(NullPointerException.class,
                () -> new GroupTables(List.of(BlockTable.EMPTY), Arrays.asList((Integer) null)), "no null cursor, as before");
    }
}
