package io.kvledger.testkit;

import io.kvledger.application.LedgerStore;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.application.spi.OpenStore;
import io.kvledger.domain.event.EngineEvent;
import java.util.List;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;

/**
 * The given part of a test as a store: an in-memory engine that already holds the history, so the
 * ledger built on it resumes it exactly as it resumes a durable store, and a second ledger built on it
 * after the step replays everything. Kept open across both ledgers; closed by nothing (it is memory).
 */
final class GivenStore {

    private final EventStorageEngine engine = new InMemoryEventStorageEngine();

    GivenStore(String engineId, List<EngineEvent> history) {
        // One message holding the whole history, as a step's events are stored.
        engine.appendEvents(List.of(new GenericDomainEventMessage<>("EngineAggregate", engineId, 0, new StepEvents(history))));
    }

    LedgerStore store() {
        return LedgerStore.opened("given:", () -> OpenStore.unowned(engine));
    }
}
