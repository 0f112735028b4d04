package io.kvledger.infrastructure.store;

import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;

/**
 * Axon's in-memory engine, the facade's default. It keeps events in a map keyed by global position
 * only, so it stores a second event at a taken (aggregate, sequence number) and a gap alike: those
 * guarantees are excluded for it. (Command handling still keeps one aggregate's events ordered.)
 */
class InMemoryEventStorageEngineContractTest extends EventStorageEngineContract {

    @Override
    protected EventStorageEngine createEngine() {
        return new InMemoryEventStorageEngine();
    }

    @Override
    protected boolean rejectsDuplicateSequenceNumbers() {
        return false;
    }

    @Override
    protected boolean rejectsSequenceGaps() {
        return false;
    }
}
