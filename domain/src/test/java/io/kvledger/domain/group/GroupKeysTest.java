package io.kvledger.domain.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;

/**
 * A group's chunk key is its prefix hash and {@code /g<g>} (contract 7.1), group 0's the hash alone; the tools read the
 * group back from it. Made from constant marks for the first groups and by concatenation past them: the same text.
 */
class GroupKeysTest {

    private static final String HASH = "240760a6d1f3c0b9e8a7f6e5d4c3b2a1";

    @Test
    void givenAHashWhenKeyedForEachGroupThenTheKeyIsTheHashAndItsMarkAndReadsBackAsItsGroup() {
        assertSame(HASH, GroupKeys.of(HASH, 0), "group 0's key is the hash itself");
        for (int g = 1; g <= 25; g++) {
            String key = GroupKeys.of(HASH, g);
            assertEquals(HASH + "/g" + g, key, "group " + g);
            assertEquals(g, GroupKeys.groupOf(key, 26), "group " + g + " read back");
            assertEquals(HASH.length(), GroupKeys.markStart(key), "group " + g + "'s mark begins after the hash");
        }
        assertEquals(0, GroupKeys.groupOf(HASH, 26));
        assertEquals(HASH.length(), GroupKeys.markStart(HASH));
    }
}
