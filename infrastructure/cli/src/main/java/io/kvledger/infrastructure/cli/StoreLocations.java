package io.kvledger.infrastructure.cli;

import io.kvledger.application.spi.LedgerStoreProvider;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.application.spi.OpenStore;
import io.kvledger.domain.event.EngineEvent;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/** {@code --store} values: a file path, or a store location with a scheme ({@code jdbc:postgresql://...}, {@code file:...}). */
final class StoreLocations {

    private static final Pattern LOCATION = Pattern.compile("[a-z][a-z0-9+.-]+:.+");

    private StoreLocations() {
    }

    /** Whether {@code store} names a location (scheme:...) rather than a file; {@code C:\\x} is a file. */
    static boolean isLocation(String store) {
        return LOCATION.matcher(store).matches();
    }

    /** Opens the store at {@code location} for reading, through the module that provides its scheme. */
    static OpenStore open(String location) {
        String scheme = location.substring(0, location.indexOf(':'));
        for (LedgerStoreProvider provider : ServiceLoader.load(LedgerStoreProvider.class)) {
            if (provider.scheme().equals(scheme)) {
                provider.validate(location);
                return provider.open(location);
            }
        }
        throw new IllegalArgumentException("no store module on the class path opens '" + scheme + ":' locations");
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
