package io.kvledger.tests.bench;

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
 * Keeps nothing, so a benchmark of many steps measures deciding and Axon's command path without a
 * store's memory or I/O (the aggregate stays in the strong cache, so nothing is ever read back).
 */
final class DiscardingStorageEngine implements EventStorageEngine {

    @Override
    public void appendEvents(List<? extends EventMessage<?>> events) {
        // discarded on purpose
    }

    @Override
    public void storeSnapshot(DomainEventMessage<?> snapshot) {
        // discarded on purpose
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
