package io.kvledger.infrastructure.store;

import java.io.IOException;
import java.nio.file.Path;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * When the store's appends are forced to disk ({@link FsyncPolicy}), and whether the store is still
 * fit to append: a failed force (the kernel may have dropped the pages) or a failed write that could
 * not be cut leave it broken until it is reopened. Runs on the writer thread; {@link #forcedSeq()}
 * and {@link #broken()} may be read from any thread.
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
    private volatile long forcedSeq;
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

    /** Why the store refuses appends; {@code null} while it takes them. */
    String broken() {
        return broken;
    }

    /** After an append up to {@code seq} was written: forces it now, or schedules the force, as the policy says. */
    void written(long seq) {
        writtenSeq = seq;
        long now = System.nanoTime();
        if (fsync.forceAfterAppend(lastForceNanos, now)) {
            force(now);
            return;
        }
        unforced = true;
        if (fsync instanceof FsyncPolicy.Interval interval && !forceScheduled) {
            // Forced at most one period after this append even if no append follows it.
            forceScheduled = true;
            writer.later(this::forceLater, Math.max(0, lastForceNanos + interval.period().toNanos() - now));
        }
    }

    /** Cuts what a failed write left after {@code end}; if even that fails, the store refuses appends until reopened. */
    void undo(long end, IOException cause) {
        try {
            storeFile.truncate(end);
        } catch (IOException e) {
            cause.addSuppressed(e);
            broken = "a failed append to " + file + " could not be undone (reopen the store to cut it): " + cause;
        }
    }

    /** On close, after the writer has stopped: forces what is not forced yet when the policy says so. */
    void close() {
        try {
            if (unforced && broken == null && fsync.forceOnClose()) {
                storeFile.force();
            }
        } catch (IOException e) {
            throw new EventStoreException("cannot force " + file + " to disk on close: " + e, e);
        }
    }

    private void force(long now) {
        try {
            storeFile.force();
            lastForceNanos = now;
            unforced = false;
            forcedSeq = writtenSeq;
        } catch (IOException e) {
            // After a failed fsync the kernel may have dropped the pages: nothing can be promised any more.
            broken = "forcing " + file + " to disk failed: " + e;
            throw new EventStoreException(broken, e);
        }
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
