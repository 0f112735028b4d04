package io.kvledger.infrastructure.cli;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.axonframework.common.IdentifierFactory;

/**
 * The identifiers of the command line's Axon messages (each step's command and event message; a store writes the
 * event's in its envelope): random version-4 UUIDs, as Axon's default makes, drawn from {@link ThreadLocalRandom}
 * instead of {@code SecureRandom}. Axon's default reads the operating system's generator and mixes it with SHA-1
 * for every message, 3 % of a simulation's stepping thread; a message id needs to be unique, not unpredictable.
 * Installed through {@code META-INF/services} in the command line's jar only, so a host embedding the library
 * keeps its own factory.
 */
public final class MessageIdentifiers extends IdentifierFactory {

    @Override
    public String generateIdentifier() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = random.nextLong() & ~0xF000L | 0x4000L;                           // version 4
        long low = random.nextLong() & 0x3FFFFFFFFFFFFFFFL | 0x8000000000000000L;      // the IETF variant
        return new UUID(high, low).toString();
    }
}
