package io.kvledger.infrastructure.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When the store's appends are forced to disk ({@link FsyncPolicy}), and whether the store is still
 * fit to append: a failed force (the kernel may have dropped the pages), a failed write that could
 * not be cut, or a failed write of an append whose step had already returned leave it broken until
 * it is reopened. Forces are grouped: under {@code always} an append written is acknowledged at the
 * end of the writer's batch, after one force for every append of the batch. Runs on the writer
 * thread; {@link #forcedSeq()}, {@link #forces()} and {@link #broken()} may be read from any thread.
 */
final class StoreForcing {

    private static final Logger LOG = LoggerFactory.getLogger(StoreForcing.class);

    private final Path file;
    private final StoreFile storeFile;
    private final FsyncPolicy fsync;
    private final StoreWriter writer;
    private long lastForceNanos = System.nanoTime();
    private long writtenSeq;
    private boolean unforced;
    private boolean forceScheduled;
    // Acknowledgements of appends written and waiting for the batch's force (under always).
    private final List<CompletableFuture<Void>> awaitingForce = new ArrayList<>();
    private volatile long forcedSeq;
    private volatile long forces;
    private volatile String broken;

    StoreForcing(StoreFile storeFile, FsyncPolicy fsync, StoreWriter writer, long openedSeq) {
        this.file = storeFile.path();
        this.storeFile = storeFile;
        this.fsync = fsync;
        this.writer = writer;
        this.writtenSeq = openedSeq;
        this.forcedSeq = fsync == FsyncPolicy.NEVER ? 0 : openedSeq; // StoreFile.open forced it
    }

    long forcedSeq() {
        return forcedSeq;
    }

    /** How many times the file was forced since the store opened (the force on open not counted). */
    long forces() {
        return forces;
    }

    /** Why the store refuses appends; {@code null} while it takes them. */
    String broken() {
        return broken;
    }

    /** The store refuses appends from now on, for {@code reason}, until it is reopened. */
    void refuse(String reason) {
        if (broken == null) {
            broken = reason;
        }
    }

    /**
     * After an append up to {@code seq} was written: acknowledges it at once when the policy promises
     * no more than the write ({@code never}, {@code interval}), else at the end of the batch, once
     * forced; under {@code interval} schedules the force that follows at most one period later.
     */
    void written(long seq, CompletableFuture<Void> acknowledgement) {
        writtenSeq = seq;
        unforced = true;
        if (fsync == FsyncPolicy.ALWAYS) {
            awaitingForce.add(acknowledgement);
            return;
        }
        acknowledgement.complete(null);
        if (fsync instanceof FsyncPolicy.Interval interval && !forceScheduled) {
            // Forced at most one period after this append even if no append follows it.
            forceScheduled = true;
            writer.later(this::forceLater, Math.max(0, lastForceNanos + interval.period().toNanos() - System.nanoTime()));
        }
    }

    /** At the end of the writer's batch: one force for all of it when the policy says so, then its acknowledgements. */
    void endOfBatch() {
        long now = System.nanoTime();
        if (unforced && broken == null && fsync.forceAfterAppend(lastForceNanos, now)) {
            try {
                force(now);
            } catch (EventStoreException e) {
                failAwaiting(e);
                return;
            }
        }
        if (broken != null) {
            failAwaiting(new EventStoreException(broken));
        }
    }

    /** For a flush, on the writer thread: forces what is written and not forced yet, unless the policy is {@code never}. */
    void forceNow() {
        if (broken != null) {
            throw new EventStoreException(broken);
        }
        if (unforced && fsync != FsyncPolicy.NEVER) {
            try {
                force(System.nanoTime());
            } catch (EventStoreException e) {
                failAwaiting(e);
                throw e;
            }
        }
    }

    /** Cuts what a failed write left after {@code end}; if even that fails, the store refuses appends until reopened. */
    void undo(long end, IOException cause) {
        try {
            storeFile.truncate(end);
        } catch (IOException e) {
            cause.addSuppressed(e);
            refuse("a failed append to " + file + " could not be undone (reopen the store to cut it): " + cause);
        }
    }

    /** On close, after the writer has stopped: forces what is not forced yet when the policy says so. */
    void close() {
        try {
            if (unforced && broken == null && fsync.forceOnClose()) {
                storeFile.force();
                forces++;
                forcedSeq = writtenSeq;
            }
        } catch (IOException e) {
            throw new EventStoreException("cannot force " + file + " to disk on close: " + e, e);
        }
    }

    private void force(long now) {
        try {
            storeFile.force();
            forces++;
            lastForceNanos = now;
            unforced = false;
            forcedSeq = writtenSeq;
        } catch (IOException e) {
            // After a failed fsync the kernel may have dropped the pages: nothing can be promised any more.
            refuse("forcing " + file + " to disk failed: " + e);
            throw new EventStoreException(broken, e);
        }
        for (CompletableFuture<Void> acknowledgement : awaitingForce) {
            acknowledgement.complete(null);
        }
        awaitingForce.clear();
    }

    private void failAwaiting(EventStoreException e) {
        for (CompletableFuture<Void> acknowledgement : awaitingForce) {
            acknowledgement.completeExceptionally(e);
        }
        awaitingForce.clear();
    }

    /** The delayed force of {@code interval:MS}. */
    private void forceLater() {
        forceScheduled = false;
        if (unforced && broken == null) {
            try {
                force(System.nanoTime());
            } catch (EventStoreException e) {
                LOG.error("{}", e.getMessage()); // the next append reports it to its caller
            }
        }
    }
}
