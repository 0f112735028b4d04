package io.kvledger.application.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class KeyMapTest {

    @Test
    void aPairingTranslatesBothWaysAndAnUnknownKeyStaysAsItIs() {
        KeyMap keys = new KeyMap();

        assertNull(keys.learn("9c1e4f0a", "bac02613"));
        assertNull(keys.learn("9c1e4f0a", "bac02613"));

        assertEquals("bac02613", keys.tokenKeyOf("9c1e4f0a"));
        assertEquals("9c1e4f0a", keys.logKeyOf("bac02613"));
        assertEquals("never-seen", keys.tokenKeyOf("never-seen"));
    }

    @Test
    void aKeyNamingTwoPrefixesOrAPrefixWithTwoKeysConflicts() {
        KeyMap keys = new KeyMap();
        keys.learn("9c1e4f0a", "bac02613");

        KeyConflict reused = keys.learn("9c1e4f0a", "8bfadd06");
        KeyConflict rekeyed = keys.learn("5a17e0c3", "bac02613");

        assertTrue(reused.logKeyReused());
        assertEquals("9c1e4f0a", reused.earlier());
        assertEquals(new KeyConflict("5a17e0c3", "bac02613", "9c1e4f0a", false), rekeyed);
        assertEquals("bac02613", keys.tokenKeyOf("9c1e4f0a"), "the first pairing stays");
    }

    @Test
    void forgottenKeysLeaveTheMap() {
        KeyMap keys = new KeyMap();
        keys.learn("9c1e4f0a", "bac02613");
        keys.learn("77aa", "8bfadd06");

        keys.forget(List.of("bac02613"));

        assertEquals(1, keys.size());
        assertEquals("9c1e4f0a", keys.tokenKeyOf("9c1e4f0a"));
    }
}
