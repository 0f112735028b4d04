package io.kvledger.infrastructure.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The background work of a store directory ({@link SegmentedEventStorageEngine}), on its own thread
 * ({@code kvledger-store-segments DIR}) so that no step waits for it: the closed segments left plain
 * are compressed, then retention is applied ({@link SegmentRetention}). It runs after opening and after
 * each roll; apart from the store so that how a directory is kept changes on its own.
 */
final class SegmentTidying {

    // The store's logger: these lines read as the store's, as they did when the store did this work.
    private static final Logger LOG = LoggerFactory.getLogger(SegmentedEventStorageEngine.class);

    private final SegmentedEventStorageEngine store;
    private final Path directory;
    private final FsyncPolicy fsync;
    private final SegmentPolicy policy;
    private final ExecutorService background;

    SegmentTidying(SegmentedEventStorageEngine store, Path directory, FsyncPolicy fsync, SegmentPolicy policy) {
        this.store = store;
        this.directory = directory;
        this.fsync = fsync;
        this.policy = policy;
        this.background = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "kvledger-store-segments " + directory.getFileName());
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Queues a tidy of what is closed now. */
    void submit() {
        background.submit(this::tidy);
    }

    /** On the background thread: compress what is closed and plain, then apply retention. */
    private void tidy() {
        if (policy.compress()) {
            for (SegmentFiles.Segment segment : store.snapshotOfClosed()) {
                if (!segment.compressed()) {
                    compress(segment);
                }
            }
        }
        SegmentRetention.apply(store, policy);
    }

    private void compress(SegmentFiles.Segment segment) {
        try {
            SegmentFiles.Segment compressed = SegmentFiles.compress(segment, fsync != FsyncPolicy.NEVER);
            store.compressed(segment, compressed);
        } catch (IOException | RuntimeException e) {
            LOG.warn("kvledger: store {}: cannot compress {}, left plain: {}", directory, segment.file(), e.toString());
        }
    }

    /** Waits until the compressions and retention queued so far are done. */
    void await() {
        try {
            background.submit(() -> { }).get(1, TimeUnit.MINUTES);
        } catch (Exception e) {
            throw new EventStoreException("the store's background work on " + directory + " did not finish: " + e, e);
        }
    }

    /** Takes no more work and waits (a minute at most) for what is queued: what is left is redone on the next open. */
    void close() {
        background.shutdown();
        try {
            if (!background.awaitTermination(1, TimeUnit.MINUTES)) {
                LOG.warn("kvledger: store {}: compression still running at close; it is redone on the next open", directory);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
