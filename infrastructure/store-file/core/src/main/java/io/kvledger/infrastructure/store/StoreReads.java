package io.kvledger.infrastructure.store;

import io.kvledger.infrastructure.log.LogEntry;
import java.time.Instant;
import java.util.stream.Stream;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GlobalSequenceTrackingToken;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.DomainEventStream;

/**
 * The read side of a store file, apart from its appends ({@link QueuedAppends}) so that the two change
 * on their own: Axon's loads and tracking reads and its tokens. Each read first waits until the appends
 * taken are written, so that it sees every append that returned; then it takes, under the store's lock,
 * where to read (the index holds the lines after the latest snapshot only; earlier ones are read from
 * the file's start) and the end of the whole appends, and reads the file by position outside the lock.
 */
final class StoreReads {

    private final JsonlEventStorageEngine store; // its lock guards the index and the end of the file
    private final StoreFile storeFile;
    private final StoreIndex index;
    private final QueuedAppends appends;
    // The seq before the file's first line: 0, or a segment's base seq (its first line is baseSeq + 1).
    private final long fileBaseSeq;

    StoreReads(JsonlEventStorageEngine store, StoreFile storeFile, StoreIndex index, QueuedAppends appends, long fileBaseSeq) {
        this.store = store;
        this.storeFile = storeFile;
        this.index = index;
        this.appends = appends;
        this.fileBaseSeq = fileBaseSeq;
    }

    DomainEventStream readEvents(String aggregateIdentifier, long firstSequenceNumber) {
        long seqBefore;
        long lastSequence;
        long from;
        long until;
        long first = Math.max(0, firstSequenceNumber);
        store.awaitWritten();
        synchronized (store) {
            store.ensureOpen();
            long next = index.nextSequence(aggregateIdentifier);
            if (first >= next) {
                return DomainEventStream.empty();
            }
            // Lines before the latest snapshot are not indexed: read from the file start.
            long firstSeq = index.seqOf(aggregateIdentifier, first).orElse(fileBaseSeq + 1);
            seqBefore = firstSeq - 1;
            lastSequence = next - 1;
            from = firstSeq == fileBaseSeq + 1 ? 0 : index.offsetOf(firstSeq);
            until = appends.end();
        }
        Stream<DomainEventMessage<?>> events = StoreMessages.ofAggregate(storeFile.entries(from, seqBefore, until), aggregateIdentifier)
                .filter(message -> message.getSequenceNumber() >= first && message.getSequenceNumber() <= lastSequence);
        return DomainEventStream.of(events, () -> lastSequence);
    }

    Stream<? extends TrackedEventMessage<?>> readEvents(TrackingToken trackingToken) {
        long after = Math.max(0, StoreLines.seqOf(trackingToken));
        long from;
        long until;
        boolean indexed;
        store.awaitWritten();
        synchronized (store) {
            store.ensureOpen();
            if (after >= index.lastSeq()) {
                return Stream.empty();
            }
            indexed = after >= index.baseSeq();
            from = indexed ? index.offsetOf(after + 1) : 0;
            until = appends.end();
        }
        return StoreMessages.trackedAfter(storeFile.entries(from, indexed ? after : fileBaseSeq, until), after);
    }

    /**
     * Every line written so far, in order, read through the store's own descriptor: a second descriptor
     * of the file, once closed, would drop the process's lock on it (POSIX locks belong to the process
     * and the file, and closing any descriptor of the file releases them).
     */
    Stream<LogEntry> entries() {
        store.awaitWritten();
        return storeFile.entries(0, fileBaseSeq, endSnapshot());
    }

    TrackingToken createTailToken() {
        store.awaitWritten();
        synchronized (store) {
            return index.lastSeq() == 0 ? null : new GlobalSequenceTrackingToken(0);
        }
    }

    TrackingToken createHeadToken() {
        store.awaitWritten();
        synchronized (store) {
            return index.lastSeq() == 0 ? null : new GlobalSequenceTrackingToken(index.lastSeq());
        }
    }

    TrackingToken createTokenAt(Instant dateTime) {
        store.awaitWritten();
        try (Stream<LogEntry> all = storeFile.entries(0, fileBaseSeq, endSnapshot())) {
            // Only a message's first line has the envelope, so the first line found begins a message.
            return all.filter(entry -> entry.envelope() != null && !entry.envelope().timestamp().isBefore(dateTime))
                    .findFirst()
                    .<TrackingToken>map(entry -> new GlobalSequenceTrackingToken(entry.seq() - 1))
                    .orElseGet(this::createHeadToken);
        }
    }

    private long endSnapshot() {
        synchronized (store) {
            store.ensureOpen();
            return appends.end();
        }
    }
}
