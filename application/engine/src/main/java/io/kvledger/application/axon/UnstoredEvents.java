package io.kvledger.application.axon;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.DomainEventStream;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;

/**
 * A storage engine that keeps nothing, for runs whose record is elsewhere: the simulator writes its own
 * log, and a benchmark measures deciding without a store. A million requests' events must not pile up
 * in memory. The aggregate stays in the facade's strong cache, so nothing is ever read back.
 */
public final class UnstoredEvents implements EventStorageEngine {

    @Override
    public void appendEvents(List<? extends EventMessage<?>> events) {
        // kept by the simulator's log, not here
    }

    @Override
    public void storeSnapshot(DomainEventMessage<?> snapshot) {
        // nothing to snapshot into
    }

    @Override
    public Stream<? extends TrackedEventMessage<?>> readEvents(TrackingToken trackingToken, boolean mayBlock) {
        return Stream.empty();
    }

    @Override
    public DomainEventStream readEvents(String aggregateIdentifier, long firstSequenceNumber) {
        return DomainEventStream.empty();
    }

    @Override
    public Optional<DomainEventMessage<?>> readSnapshot(String aggregateIdentifier) {
        return Optional.empty();
    }

    @Override
    public TrackingToken createTailToken() {
        return null;
    }

    @Override
    public TrackingToken createHeadToken() {
        return null;
    }

    @Override
    public TrackingToken createTokenAt(Instant dateTime) {
        return null;
    }
}
