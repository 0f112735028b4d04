package io.kvledger.infrastructure.cli;

import io.kvledger.application.engine.StepEvents;
import io.kvledger.application.spi.OpenStore;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.StoreLocation;
import java.util.List;
import java.util.function.Consumer;

/** Reading a store's events back; what a {@code --store} value names is {@link StoreLocation}'s to say. */
final class StoreLocations {

    private StoreLocations() {
    }

    /** Opens the store at {@code location} (a location with its scheme) for reading, through the module of its scheme. */
    static OpenStore open(String location) {
        return StoreLocation.parseForReading(location).open(FsyncPolicy.NEVER);
    }

    /** Streams engine {@code engineId}'s events from the store at {@code location}, in order; returns how many. */
    static long readEvents(String location, String engineId, Consumer<EngineEvent> each) {
        try (OpenStore open = open(location)) {
            return readEvents(open, engineId, each);
        }
    }

    /**
     * Streams engine {@code engineId}'s events from a store already open, in order; returns how many. A
     * ledger's own store is read back here rather than opened a second time: a second open of a file
     * store in the process would be refused (locked), and closing a second descriptor would drop the lock.
     */
    static long readEvents(OpenStore open, String engineId, Consumer<EngineEvent> each) {
        long[] count = {0};
        // Streamed in the engine's batches: memory does not grow with the engine's log.
        open.storageEngine().readEvents(engineId).asStream().forEach(message -> {
            Object payload = message.getPayload();
            for (EngineEvent event : payload instanceof StepEvents step ? step.events() : List.of((EngineEvent) payload)) {
                each.accept(event);
                count[0]++;
            }
        });
        return count[0];
    }
}
