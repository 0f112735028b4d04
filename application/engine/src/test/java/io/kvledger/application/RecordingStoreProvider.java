package io.kvledger.application;

import io.kvledger.application.spi.LedgerStoreProvider;
import io.kvledger.application.spi.OpenStore;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;

/**
 * {@code recording:NAME}, a store module of the tests' own found through the ServiceLoader: in memory,
 * recording when it is opened and closed; {@code recording:refuse} fails to open, and
 * {@code recording:bad} is refused by {@link #validate}.
 */
public final class RecordingStoreProvider implements LedgerStoreProvider {

    static final List<String> EVENTS = new ArrayList<>();

    @Override
    public String scheme() {
        return "recording";
    }

    @Override
    public void validate(String location) {
        if (location.equals("recording:bad")) {
            throw new IllegalArgumentException("recording: bad is not a name");
        }
    }

    @Override
    public OpenStore open(String location) {
        if (location.equals("recording:refuse")) {
            throw new IllegalStateException("store " + location + " refuses to open");
        }
        EVENTS.add("open " + location);
        return OpenStore.of(new InMemoryEventStorageEngine(), () -> EVENTS.add("close " + location),
                List.of((commands, result, nanos) -> EVENTS.add("store told of a step of " + commands)));
    }
}
