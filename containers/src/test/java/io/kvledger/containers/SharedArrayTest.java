package io.kvledger.containers;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/** The append-in-place protocol: the newest version appends in place while the array has room; any other copies. */
class SharedArrayTest {

    @Test
    void theVersionEndingAtTheClaimAppendsInPlaceWhileThereIsRoom() {
        SharedLongs shared = new SharedLongs(new long[] {1, 2, 0, 0}, 2);
        assertSame(shared, shared.forAppend(0, 2, 1), "the newest version, with room");
        assertEquals(0, SharedArray.start(shared, shared, 0));
        assertSame(shared, shared.forAppend(1, 3, 1), "a narrower window ending at the claim");
        SharedLongs full = shared.forAppend(1, 4, 1);
        assertNotSame(shared, full, "no room left: a copy");
        assertEquals(0, SharedArray.start(shared, full, 1));
        assertEquals(6, full.slots.length, "twice the window at least");
        assertSame(full, full.forAppend(0, 4, 2), "the copy is claimed through the new slots");
    }

    @Test
    void aVersionThatDoesNotEndAtTheClaimCopiesItsOwnWindowOnly() {
        SharedLongs shared = new SharedLongs(new long[] {1, 2, 3, 0, 0, 0, 0, 0}, 3);
        SharedLongs older = shared.forAppend(0, 2, 1);
        assertNotSame(shared, older, "another version wrote past this one's end");
        assertArrayEquals(new long[] {1, 2, 0, 0}, older.slots, "its own window, with room, nothing of the other's");
        assertSame(shared, shared.forAppend(1, 3, 2), "the newest one still appends in place");
        assertNotSame(SharedLongs.EMPTY, SharedLongs.EMPTY.forAppend(0, 0, 1), "the empty array has no room");
    }
}
