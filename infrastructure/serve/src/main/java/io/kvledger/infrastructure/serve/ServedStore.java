package io.kvledger.infrastructure.serve;

import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.application.spi.OpenStore;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import io.kvledger.infrastructure.store.SeqNumberedStore;

/**
 * The durable store a server's engine runs on: a store file it opened itself, or any store opened through
 * its location's module (a store directory, a database). Owned by the server: closed with the ledger, or
 * on its own if no ledger was ever built on it.
 */
abstract class ServedStore {

    /** The engine's id in stores that hold several (a database): the one {@code kvledger run} uses by default. */
    static final String ENGINE_ID = "engine";

    abstract KvLedger.Builder builder();

    /** Whether the store holds an engine already, which then fixes the config. */
    abstract boolean holdsEngine();

    /** The seq of the store's last event. */
    abstract long lastSeq();

    abstract void close();

    static ServedStore of(JsonlEventStorageEngine file) {
        return new ServedStore() {
            @Override
            KvLedger.Builder builder() {
                return FileStores.builder(file);
            }

            @Override
            boolean holdsEngine() {
                return file.lastSeq() > 0;
            }

            @Override
            long lastSeq() {
                return file.lastSeq();
            }

            @Override
            void close() {
                file.close();
            }
        };
    }

    /** A store opened through its location's module; {@code location} names it in messages. */
    static ServedStore of(String location, OpenStore open) {
        return new ServedStore() {
            @Override
            KvLedger.Builder builder() {
                return KvLedger.builder().store(LedgerStore.opened(location, () -> open)).engineId(ENGINE_ID);
            }

            @Override
            boolean holdsEngine() {
                return open.storageEngine().lastSequenceNumberFor(ENGINE_ID).isPresent();
            }

            @Override
            long lastSeq() {
                if (open.storageEngine() instanceof SeqNumberedStore numbered) {
                    return numbered.lastSeq();
                }
                // A database keeps every event: their count is the last seq.
                long[] count = {0};
                open.storageEngine().readEvents(ENGINE_ID).asStream().forEach(message -> count[0] +=
                        message.getPayload() instanceof StepEvents step ? step.events().size() : 1);
                return count[0];
            }

            @Override
            void close() {
                open.close();
            }
        };
    }
}
