package io.kvledger.infrastructure.store;

import io.kvledger.application.StepListener;
import io.kvledger.application.engine.EngineAggregate;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.state.EngineState;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Snapshots of the engine's state, taken every {@code every} events: the facade tells the store the
 * state after each step (a {@link StepListener}, on the stepping thread), and when enough events have
 * been stored since the last snapshot, the state is encoded there and then (the state is a view valid
 * until the next step, which changes it in place) and the writer thread writes the bytes
 * ({@link SnapshotFile}) after the step's append. Nothing is folded a second time and no other thread
 * reads the state. A snapshot that cannot be written is logged and the next one
 * is tried {@code every} events later: the events are the record, a snapshot only saves reading them.
 */
final class StoreSnapshots {

    private static final Logger LOG = LoggerFactory.getLogger(StoreSnapshots.class);

    /** Where the state stands in the log: after line {@code seq}, ending at {@code offset}, message {@code sequenceNumber}. */
    record Point(String engineId, long sequenceNumber, long seq, long offset) {
    }

    private final Object lock; // the store's: it guards the index and what the appends took
    private final StoreFile file;
    private final Path store;
    private final StoreIndex index;
    private final QueuedAppends appends;
    private final long every;
    private final boolean durable;
    private volatile SnapshotFile.Snapshot latest;
    private long lastSeq;

    StoreSnapshots(Object lock, StoreFile file, StoreIndex index, QueuedAppends appends, long every, boolean durable,
            SnapshotFile.Snapshot opened) {
        this.lock = lock;
        this.file = file;
        this.store = file.path();
        this.index = index;
        this.appends = appends;
        this.every = every;
        this.durable = durable;
        this.latest = opened;
        this.lastSeq = opened == null ? 0 : opened.seq();
    }

    /** The snapshot the store opened from or wrote last, if any. */
    SnapshotFile.Snapshot latest() {
        return latest;
    }

    /** The latest snapshot of {@code aggregateIdentifier}, as Axon's snapshot message: the aggregate itself, rebuilt from the state. */
    Optional<DomainEventMessage<?>> message(String aggregateIdentifier) {
        SnapshotFile.Snapshot latest = this.latest;
        if (latest == null || !latest.engineId().equals(aggregateIdentifier)) {
            return Optional.empty();
        }
        return Optional.of(new GenericDomainEventMessage<>(EngineAggregate.class.getSimpleName(), aggregateIdentifier,
                latest.sequenceNumber(), EngineAggregate.restored(aggregateIdentifier, latest.state()))); // a state of its own
    }

    /**
     * The state after the last append (on the appending thread, under the store's lock): when a snapshot
     * is due, its bytes are encoded here, on the thread that owns the state (the next step changes it in
     * place), and the writer thread writes them once the appends before it are written.
     */
    void offer(EngineState state) {
        long seq = appends.lastSeq();
        String engineId = appends.lastAggregate();
        if (appends.broken() != null || engineId == null || !due(seq)) {
            return;
        }
        taking(seq);
        byte[] encoded;
        try {
            encoded = StateCodec.encode(state);
        } catch (IOException | RuntimeException e) {
            LOG.warn("{}: cannot encode a snapshot at seq {}: {}", store, seq, e.toString());
            return;
        }
        EngineConfig config = state.config();
        appends.submit(() -> snapshotAfter(seq, engineId, encoded, config));
    }

    /** On the writer thread: the snapshot of the state after line {@code seq} ({@code encoded}), unless a write failed before it. */
    private void snapshotAfter(long seq, String engineId, byte[] encoded, EngineConfig config) {
        Point point;
        synchronized (lock) {
            if (appends.broken() != null || index.lastSeq() != seq) {
                return;
            }
            point = new Point(engineId, index.nextSequence(engineId) - 1, seq, appends.end());
        }
        if (write(file, new SnapshotFile.Snapshot(point.engineId(), point.sequenceNumber(), point.seq(), point.offset(),
                encoded, config, null))) {
            synchronized (lock) {
                index.rebase(seq); // what the snapshot covers is read from the file's start if ever
            }
        }
    }

    /** Whether a snapshot is due at {@code seq} (on the scheduler thread). */
    private boolean due(long seq) {
        return every > 0 && seq - lastSeq >= every;
    }

    /** Marks a snapshot after line {@code seq} as taken (on the scheduler thread); the writer thread writes it. */
    private void taking(long seq) {
        lastSeq = seq;
    }

    /** On the writer thread: writes {@code snapshot}; false (and a warning) when it cannot. */
    private boolean write(StoreFile file, SnapshotFile.Snapshot snapshot) {
        try {
            SnapshotFile.write(store, file.channel(), snapshot, durable);
            latest = snapshot;
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.warn("{}: cannot write a snapshot at seq {}: {}", store, snapshot.seq(), e.toString());
            return false;
        }
    }

    /** A listener for the facade's builder that offers each step's state to {@code engine}. */
    static StepListener listener(JsonlEventStorageEngine engine) {
        return (int commands, StepResult result, long elapsedNanos) -> engine.offerState(result.state());
    }
}
