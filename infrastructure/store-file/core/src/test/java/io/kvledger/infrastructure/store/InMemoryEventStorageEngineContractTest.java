package io.kvledger.infrastructure.store;

import io.kvledger.testkit.store.EventStorageEngineContract;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;
import org.junit.jupiter.api.Test;

/**
 * Axon's in-memory engine, the facade's default. It keeps events in a map keyed by global position
 * only, so it does not guard sequence numbers (command handling keeps one aggregate's events ordered in
 * one process); the test below pins that down, so a change in Axon shows here.
 */
class InMemoryEventStorageEngineContractTest extends EventStorageEngineContract {

    @Override
    protected EventStorageEngine createEngine() {
        return new InMemoryEventStorageEngine();
    }

    @Test
    void storesADuplicateSequenceNumberAndAGapWithoutComplaint() {
        engine.appendEvents(event("a", 0), event("a", 1));

        engine.appendEvents(event("a", 1), event("a", 5));

        assertEquals(4, track(null).size(), "both stored: only a durable engine refuses them");
    }
}
