package io.kvledger.application.axon;

import io.kvledger.application.spi.LedgerStoreProvider;
import io.kvledger.application.spi.OpenStore;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;

/** The stores the engine needs no module for: {@code mem:} and {@code none:}. */
public final class BuiltInStores {

    private BuiltInStores() {
    }

    /** {@code mem:}: Axon's in-memory engine; the events live as long as the ledger. */
    public static final class InMemory implements LedgerStoreProvider {
        @Override
        public String scheme() {
            return "mem";
        }

        @Override
        public OpenStore open(String location) {
            return OpenStore.unowned(new InMemoryEventStorageEngine());
        }
    }

    /** {@code none:}: keeps nothing, for runs whose record is elsewhere (the simulator's log, a benchmark). */
    public static final class Discarding implements LedgerStoreProvider {
        @Override
        public String scheme() {
            return "none";
        }

        @Override
        public OpenStore open(String location) {
            return OpenStore.unowned(new UnstoredEvents());
        }
    }
}
