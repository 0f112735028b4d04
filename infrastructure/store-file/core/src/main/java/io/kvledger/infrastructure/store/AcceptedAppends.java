package io.kvledger.infrastructure.store;

import java.util.HashMap;
import java.util.Map;
import org.axonframework.eventhandling.DomainEventMessage;

/**
 * What the store has taken: appends checked and queued for the writer thread, which may not have
 * written them yet. The next append is checked against this, not against the lines written
 * ({@link StoreIndex}), so a step need not wait for the one before it to be written. Not
 * thread-safe: the store guards it.
 */
final class AcceptedAppends implements AppendChecks.Sequences {

    private final StoreIndex written;
    private long lastSeq;
    /** The next sequence number of each aggregate with an append taken since the index last caught up. */
    private final Map<String, Long> next = new HashMap<>();

    AcceptedAppends(StoreIndex written) {
        this.written = written;
        this.lastSeq = written.lastSeq();
    }

    /** The seq of the last line taken (written or queued). */
    @Override
    public long lastSeq() {
        return lastSeq;
    }

    @Override
    public long nextSequence(String aggregateId) {
        Long taken = next.get(aggregateId);
        return taken != null ? taken : written.nextSequence(aggregateId);
    }

    /** Takes {@code append}, checked against this: its lines follow the last one taken. */
    void accept(AppendChecks.Append append) {
        lastSeq += append.lines();
        for (DomainEventMessage<?> message : append.messages()) {
            next.put(message.getAggregateIdentifier(), message.getSequenceNumber() + 1);
        }
    }

    /** Whether every append taken is written. */
    boolean allWritten() {
        return lastSeq == written.lastSeq();
    }

    /** Back to what is written: the only append not written failed, and its caller rolls it back. */
    void resetToWritten() {
        lastSeq = written.lastSeq();
        next.clear();
    }
}
