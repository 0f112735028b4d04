package io.kvledger.application.spi;

import java.util.Objects;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;

/**
 * A store a {@link LedgerStoreProvider} opened for one ledger: the Axon storage engine the ledger runs
 * on, and what closing it means. The ledger closes it once, after Axon has stopped and after the
 * resources given to {@code closeWith}. Part of the SPI, so it may name Axon types; users never see it.
 */
public interface OpenStore extends AutoCloseable {

    EventStorageEngine storageEngine();

    /** Releases the store (flushes, unlocks, closes connections); must not throw for a store already closed. */
    @Override
    void close();

    /** A store whose engine the ledger owns: closing the store closes {@code closer}. */
    static OpenStore of(EventStorageEngine engine, AutoCloseable closer) {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(closer, "closer");
        return new OpenStore() {
            @Override
            public EventStorageEngine storageEngine() {
                return engine;
            }

            @Override
            public void close() {
                try {
                    closer.close();
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException("cannot close the store " + engine, e);
                }
            }

            @Override
            public String toString() {
                return engine.toString();
            }
        };
    }

    /** A store with nothing to release (in memory, or nothing kept at all). */
    static OpenStore unowned(EventStorageEngine engine) {
        return of(engine, () -> { });
    }
}
