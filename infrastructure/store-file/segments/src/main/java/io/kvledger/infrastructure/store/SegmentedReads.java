package io.kvledger.infrastructure.store;

import io.kvledger.domain.config.EngineConfig;
import java.util.List;
import java.util.stream.Stream;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.DomainEventStream;

/**
 * Axon's reads of a store directory ({@link SegmentedEventStorageEngine}): a read that begins within
 * the current segment is the segment's own; one that begins before it reads the closed segments kept,
 * compressed or not ({@link ClosedSegmentLines}), then the current one. What retention dropped is gone.
 * Which segments to read is taken under the store's lock; they are read outside it. Apart from the
 * store so that reading across segments changes on its own.
 */
final class SegmentedReads {

    private final SegmentedEventStorageEngine store;

    SegmentedReads(SegmentedEventStorageEngine store) {
        this.store = store;
    }

    /** From the segment that holds {@code firstSequenceNumber} on; what retention dropped is gone. */
    DomainEventStream readEvents(String aggregateIdentifier, long firstSequenceNumber) {
        List<SegmentFiles.Segment> older;
        JsonlEventStorageEngine newest;
        synchronized (store) {
            store.ensureOpen();
            newest = store.current();
            if (newest.segment().fileBaseSeq() == 0 || firstSequenceNumber > newest.segment().fileBaseSequenceNumber()) {
                return newest.readEvents(aggregateIdentifier, firstSequenceNumber);
            }
            older = store.snapshotOfClosed();
        }
        DomainEventStream tail = newest.readEvents(aggregateIdentifier, firstSequenceNumber);
        EngineConfig config = newest.segment().logConfig();
        Stream<DomainEventMessage<?>> before = StoreMessages.ofAggregate(older.stream()
                        .flatMap(segment -> ClosedSegmentLines.of(segment, config)),
                        aggregateIdentifier)
                .filter(message -> message.getSequenceNumber() >= firstSequenceNumber);
        Stream<DomainEventMessage<?>> after = tail.asStream().map(message -> (DomainEventMessage<?>) message);
        return DomainEventStream.of(Stream.concat(before, after), tail::getLastSequenceNumber);
    }

    Stream<? extends TrackedEventMessage<?>> readEvents(TrackingToken trackingToken, boolean mayBlock) {
        long after = Math.max(0, StoreLines.seqOf(trackingToken));
        List<SegmentFiles.Segment> older;
        JsonlEventStorageEngine newest;
        synchronized (store) {
            store.ensureOpen();
            newest = store.current();
            if (after >= newest.segment().fileBaseSeq()) {
                return newest.readEvents(trackingToken, mayBlock);
            }
            older = store.snapshotOfClosed();
        }
        EngineConfig config = newest.segment().logConfig();
        Stream<? extends TrackedEventMessage<?>> before = StoreMessages.trackedAfter(older.stream()
                .flatMap(segment -> ClosedSegmentLines.of(segment, config)), after);
        return Stream.concat(before, newest.readEvents(trackingToken, mayBlock));
    }
}
