package io.kvledger.infrastructure.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.IntStream;
import org.axonframework.common.IdentifierFactory;
import org.junit.jupiter.api.Test;

/**
 * The command line's Axon message ids: the factory Axon finds is the command line's own, and what it makes reads as
 * Axon's default made it, a random version-4 UUID in its canonical form, never the same twice, from one thread or
 * from several at once.
 */
class MessageIdentifiersTest {

    @Test
    void axonFindsTheCommandLinesFactory() {
        assertInstanceOf(MessageIdentifiers.class, IdentifierFactory.getInstance());
    }

    @Test
    void eachIdIsACanonicalRandomUuidAndNoneRepeats() {
        IdentifierFactory factory = new MessageIdentifiers();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200_000; i++) {
            String id = factory.generateIdentifier();
            UUID uuid = UUID.fromString(id);
            assertEquals(4, uuid.version(), id);
            assertEquals(2, uuid.variant(), id);
            assertEquals(id, uuid.toString(), "canonical: lower-case hex, 8-4-4-4-12");
            assertTrue(seen.add(id), "repeated: " + id);
        }
        // Every random bit varies: a mask that kept a bit fixed would show here.
        long highOr = 0;
        long highAnd = -1;
        long lowOr = 0;
        long lowAnd = -1;
        for (String id : seen) {
            UUID uuid = UUID.fromString(id);
            highOr |= uuid.getMostSignificantBits();
            highAnd &= uuid.getMostSignificantBits();
            lowOr |= uuid.getLeastSignificantBits();
            lowAnd &= uuid.getLeastSignificantBits();
        }
        assertEquals(0x4000L, highAnd, "only the version bits are set in every id");
        assertEquals(~0x0000L & ~0xB000L, highOr, "only the version's other bits are clear in every id");
        assertEquals(0x8000000000000000L, lowAnd);
        assertEquals(~0x4000000000000000L, lowOr);
    }

    @Test
    void threadsAtOnceMakeNoIdTwice() {
        IdentifierFactory factory = new MessageIdentifiers();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        IntStream.range(0, 4).parallel().forEach(thread -> {
            for (int i = 0; i < 50_000; i++) {
                assertTrue(seen.add(factory.generateIdentifier()));
            }
        });
        assertEquals(200_000, seen.size());
    }
}
