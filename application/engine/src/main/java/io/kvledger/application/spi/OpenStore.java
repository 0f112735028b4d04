package io.kvledger.application.spi;

import io.kvledger.application.StepListener;
import io.kvledger.application.axon.AxonEngineConfiguration;
import java.util.List;
import java.util.Objects;
import org.axonframework.common.transaction.NoTransactionManager;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.serialization.Serializer;

/**
 * A store a {@link LedgerStoreProvider} opened for one ledger: the Axon storage engine the ledger runs
 * on, and what closing it means. The ledger closes it once, after Axon has stopped and after the
 * resources given to {@code closeWith}. Part of the SPI, so it may name Axon types; users never see it.
 */
public interface OpenStore extends AutoCloseable {

    EventStorageEngine storageEngine();

    /**
     * The serializer of every Axon slot. A store that serializes events (JDBC) needs one that reads back
     * what it writes; the in-memory and file stores keep messages as they are, so the default serves.
     */
    default Serializer serializer() {
        return AxonEngineConfiguration.serializer();
    }

    /** The transaction each step (its load and its append) runs in; none by default. */
    default TransactionManager transactionManager() {
        return NoTransactionManager.INSTANCE;
    }

    /**
     * Listeners the store itself wants told about every step, before the builder's: a durable store
     * snapshots the state after a step (a version that still reads as it was once the fold goes on) this way instead of folding its events again.
     */
    default List<StepListener> stepListeners() {
        return List.of();
    }

    /** How the store's appends become durable: {@link StoreDurability#IMMEDIATE} (stored when the append returns) by default. */
    default StoreDurability durability() {
        return StoreDurability.IMMEDIATE;
    }

    /** Releases the store (flushes, unlocks, closes connections); must not throw for a store already closed. */
    @Override
    void close();

    /** A store whose engine the ledger owns: closing the store closes {@code closer}. */
    static OpenStore of(EventStorageEngine engine, AutoCloseable closer) {
        return of(engine, closer, List.of());
    }

    /** As {@link #of(EventStorageEngine, AutoCloseable)}, with listeners the store needs told of every step. */
    static OpenStore of(EventStorageEngine engine, AutoCloseable closer, List<StepListener> listeners) {
        return of(engine, closer, listeners, StoreDurability.IMMEDIATE);
    }

    /** As {@link #of(EventStorageEngine, AutoCloseable, List)}, for a store that writes behind the step ({@code durability}). */
    static OpenStore of(EventStorageEngine engine, AutoCloseable closer, List<StepListener> listeners,
                        StoreDurability durability) {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(durability, "durability");
        Objects.requireNonNull(closer, "closer");
        List<StepListener> stepListeners = List.copyOf(listeners);
        return new OpenStore() {
            @Override
            public EventStorageEngine storageEngine() {
                return engine;
            }

            @Override
            public List<StepListener> stepListeners() {
                return stepListeners;
            }

            @Override
            public StoreDurability durability() {
                return durability;
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

    /** A store whose engine the ledger owns, which wants {@code listener} told about every step. */
    static OpenStore of(EventStorageEngine engine, AutoCloseable closer, StepListener listener) {
        return of(engine, closer, List.of(Objects.requireNonNull(listener, "listener")));
    }

    /** A store with nothing to release (in memory, or nothing kept at all). */
    static OpenStore unowned(EventStorageEngine engine) {
        return of(engine, () -> { });
    }
}
