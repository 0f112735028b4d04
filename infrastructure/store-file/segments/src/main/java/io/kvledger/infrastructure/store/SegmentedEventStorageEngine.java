package io.kvledger.infrastructure.store;

import io.kvledger.application.StepListener;
import io.kvledger.application.spi.StoreDurability;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.state.EngineState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.DomainEventStream;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store that is a directory of segments ({@link SegmentFiles}), each a {@link JsonlEventStorageEngine}
 * file holding the lines of one stretch of seqs. Appends go to the newest segment. After a step that
 * takes it past {@link SegmentPolicy#segmentBytes()} (or its age) the segment rolls: it is closed
 * (forced as the policy says), the next segment's base (the state after its last line, from the
 * facade's state, {@link #snapshotListener()}) is written and renamed into place, and only then the
 * next segment is created. A closed segment is compressed and retention applied on a background
 * thread ({@code kvledger-store-segments}, {@link SegmentTidying}). Opening resumes from the newest
 * segment and its snapshot or base; a crash during a roll or a compression leaves either the old or the
 * new, whole. Reads that begin before the current segment read the closed ones ({@link SegmentedReads}).
 *
 * <p>Rolling needs the state, so only a ledger built with the store's listener (the {@code file:}
 * provider and {@link FileStores} do that) rolls; the store is one growing segment otherwise.
 */
public final class SegmentedEventStorageEngine implements EventStorageEngine, StoreDurability, SeqNumberedStore, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentedEventStorageEngine.class);

    private final Path directory;
    private final FsyncPolicy fsync;
    private final SegmentPolicy policy;
    private final SegmentTidying tidying;
    private final DirectoryLock lock;
    private final SegmentedReads reads = new SegmentedReads(this);
    private final List<SegmentFiles.Segment> closedSegments; // oldest first, guarded by this
    private JsonlEventStorageEngine current;
    private long currentStarted = System.nanoTime();
    private boolean closed;
    private long rolls;
    private long rollRetryAt;

    private SegmentedEventStorageEngine(Path directory, FsyncPolicy fsync, SegmentPolicy policy,
            List<SegmentFiles.Segment> closedSegments, JsonlEventStorageEngine current, DirectoryLock lock) {
        this.directory = directory;
        this.lock = lock;
        this.fsync = fsync;
        this.policy = policy;
        this.closedSegments = closedSegments;
        this.current = current;
        this.tidying = new SegmentTidying(this, directory, fsync, policy);
    }

    /**
     * Opens (or creates) the store directory, resuming from its newest segment, and queues the
     * compression of closed segments left plain and the retention a crash may have interrupted.
     *
     * @throws EventStoreException when the directory or a segment's base cannot be read
     */
    public static SegmentedEventStorageEngine open(Path directory, FsyncPolicy fsync, SegmentPolicy policy) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new EventStoreException("cannot open the store directory " + directory + ": " + StoreFile.reason(e), e);
        }
        // Locked before anything is tidied or opened: a second writer must not touch a live directory.
        DirectoryLock lock = DirectoryLock.lock(directory);
        try {
            return open(directory, fsync, policy, lock);
        } catch (RuntimeException e) {
            lock.close();
            throw e;
        }
    }

    private static SegmentedEventStorageEngine open(Path directory, FsyncPolicy fsync, SegmentPolicy policy,
            DirectoryLock lock) {
        List<SegmentFiles.Segment> segments;
        try {
            segments = SegmentFiles.openDirectory(directory);
        } catch (IOException e) {
            throw new EventStoreException("cannot open the store directory " + directory + ": " + StoreFile.reason(e), e);
        }
        SegmentFiles.Segment newest = segments.isEmpty()
                ? new SegmentFiles.Segment(1, directory.resolve(SegmentFiles.nameOf(1)), false)
                : segments.remove(segments.size() - 1);
        if (newest.compressed()) {
            throw new EventStoreException("the newest segment of " + directory + " is compressed (" + newest.file()
                    + "): a store directory appends to a plain segment; was its plain file removed?");
        }
        JsonlEventStorageEngine current = JsonlEventStorageEngine.open(newest.file(), fsync, policy.snapshotEvery(),
                base(newest));
        SegmentedEventStorageEngine store = new SegmentedEventStorageEngine(directory, fsync, policy, segments, current, lock);
        store.tidying.submit();
        return store;
    }

    private static SnapshotFile.Snapshot base(SegmentFiles.Segment segment) {
        if (segment.firstSeq() == 1) {
            return null;
        }
        try {
            return SnapshotFile.readBase(segment.plain());
        } catch (IOException e) {
            throw new EventStoreException("cannot open the segment " + segment.file() + " without its base: " + e, e);
        }
    }

    public Path directory() {
        return directory;
    }

    public FsyncPolicy fsyncPolicy() {
        return fsync;
    }

    /** The segment appends go to. */
    public synchronized Path currentSegment() {
        return current.file();
    }

    /** The closed segments kept, oldest first (plain until compressed). */
    public synchronized List<Path> closedSegments() {
        return closedSegments.stream().map(SegmentFiles.Segment::file).toList();
    }

    /** How many times this store has rolled since it opened. */
    public synchronized long rolls() {
        return rolls;
    }

    /** The seq of the last event appended, written or queued. */
    public synchronized long lastSeq() {
        return current.lastSeq();
    }

    /** The seq of the last event written (see {@link JsonlEventStorageEngine#writtenSeq()}). */
    public synchronized long writtenSeq() {
        return current.writtenSeq();
    }

    /** What opening the newest segment cut from its end. */
    public synchronized RecoveryReport recoveryReport() {
        return current.recoveryReport();
    }

    /** Waits until the compressions and retention queued so far are done (for tests and tools). */
    public void awaitBackground() {
        tidying.await();
    }

    /** The listener a facade over this store is built with: snapshots within a segment, and rolls. */
    public StepListener snapshotListener() {
        return (int commands, StepResult result, long elapsedNanos) -> offerState(result.state());
    }

    synchronized void offerState(EngineState state) {
        if (closed) {
            return;
        }
        current.offerState(state);
        boolean full = current.segment().takenBytes() >= policy.segmentBytes();
        boolean old = policy.segmentAge() != null && System.nanoTime() - currentStarted >= policy.segmentAge().toNanos();
        if ((full || old) && current.lastSeq() > current.segment().fileBaseSeq()) {
            roll(state);
        }
    }

    /** Closes the current segment and begins the next after its last line: base first, then the file. */
    private void roll(EngineState state) {
        if (current.segment().takenBytes() < rollRetryAt) {
            return;
        }
        current.awaitWritten(); // the base is the state after the last append taken: it must be the file's last line
        StoreSnapshots.Point point = current.segment().lastPoint();
        if (point == null) {
            return;
        }
        Path next = directory.resolve(SegmentFiles.nameOf(point.seq() + 1));
        JsonlEventStorageEngine closing = current;
        SnapshotFile.Snapshot base;
        try {
            // Encoded here, on the stepping thread that owns the state: the next step changes it in place.
            base = SnapshotFile.Snapshot.of(point.engineId(), point.sequenceNumber(), point.seq(), 0, state);
        } catch (IOException | RuntimeException e) {
            rollFailed(closing, next, e);
            return;
        }
        try {
            byte[] lastLine = closing.segment().lastLine();
            closing.close();
            SnapshotFile.writeBase(next, base, lastLine, fsync != FsyncPolicy.NEVER);
            current = JsonlEventStorageEngine.open(next, fsync, policy.snapshotEvery(), base);
        } catch (IOException | RuntimeException e) {
            rollFailed(closing, next, e);
            return;
        }
        rollRetryAt = 0;
        currentStarted = System.nanoTime();
        rolls++;
        try {
            // Superseded by the next segment's base, now that the next segment exists.
            Files.deleteIfExists(SnapshotFile.pathOf(closing.file()));
        } catch (IOException e) {
            LOG.debug("cannot remove {}: {}", SnapshotFile.pathOf(closing.file()), e.toString());
        }
        SegmentFiles.Segment done = new SegmentFiles.Segment(closing.segment().fileBaseSeq() + 1, closing.file(), false);
        closedSegments.add(done);
        tidying.submit();
    }

    /**
     * The step is stored whatever happens here: a roll that fails (a full disk, say) leaves the segment
     * current, reopened if it was closed already, and is tried again once it has grown by an eighth
     * of a segment. A base left without its segment is removed on the next open.
     */
    private void rollFailed(JsonlEventStorageEngine closing, Path next, Exception cause) {
        LOG.warn("kvledger: store {}: cannot roll to {}; appending to {} still: {}", directory, next.getFileName(),
                closing.file().getFileName(), cause.toString());
        rollRetryAt = closing.segment().endOffset() + Math.max(1, policy.segmentBytes() / 8);
        if (current != closing) {
            current.close();
            current = closing;
        }
        try {
            // Never two current segments: what the failed roll began goes (the old segment goes on).
            Files.deleteIfExists(next);
            Files.deleteIfExists(SnapshotFile.basePathOf(next));
        } catch (IOException e) {
            throw new EventStoreException("cannot undo the failed roll of " + directory + " to " + next + ": " + e, e);
        }
        if (closing.isClosed()) {
            current = JsonlEventStorageEngine.open(closing.file(), fsync, policy.snapshotEvery(),
                    base(new SegmentFiles.Segment(closing.segment().fileBaseSeq() + 1, closing.file(), false)));
        }
    }

    /** The segment appends go to now (for {@link SegmentedReads}). */
    synchronized JsonlEventStorageEngine current() {
        return current;
    }

    /** Replaces a closed segment by its compressed file, unless retention dropped it meanwhile. */
    synchronized void compressed(SegmentFiles.Segment plain, SegmentFiles.Segment compressed) {
        int at = closedSegments.indexOf(plain);
        if (at >= 0) {
            closedSegments.set(at, compressed);
        }
    }

    synchronized List<SegmentFiles.Segment> snapshotOfClosed() {
        return List.copyOf(closedSegments);
    }

    synchronized long currentBytes() {
        Path file = current.file();
        return current.segment().endOffset() + SegmentFiles.size(SnapshotFile.basePathOf(file)) + SegmentFiles.size(SnapshotFile.pathOf(file));
    }

    synchronized long currentFirstSeq() {
        return current.segment().fileBaseSeq() + 1;
    }

    synchronized void forget(SegmentFiles.Segment segment) {
        closedSegments.remove(segment);
    }

    @Override
    public void appendEvents(List<? extends EventMessage<?>> events) {
        JsonlEventStorageEngine target;
        synchronized (this) {
            ensureOpen();
            target = current;
            target.appendEvents(events);
        }
    }

    /** The current segment's: a roll closes a segment only once its appends are written and forced as the policy says. */
    @Override
    public synchronized CompletableFuture<Void> stored() {
        return current.stored();
    }

    @Override
    public void flush() {
        JsonlEventStorageEngine target;
        synchronized (this) {
            if (closed) {
                return;
            }
            target = current;
        }
        target.flush();
    }

    @Override
    public <T> T pipelined(Supplier<T> step) {
        return JsonlEventStorageEngine.runPipelined(step);
    }

    @Override
    public void storeSnapshot(DomainEventMessage<?> snapshot) {
        // As the segment's: the store takes its own snapshots.
    }

    @Override
    public synchronized Optional<DomainEventMessage<?>> readSnapshot(String aggregateIdentifier) {
        ensureOpen();
        return current.readSnapshot(aggregateIdentifier);
    }

    /** From the segment that holds {@code firstSequenceNumber} on; what retention dropped is gone. */
    @Override
    public DomainEventStream readEvents(String aggregateIdentifier, long firstSequenceNumber) {
        return reads.readEvents(aggregateIdentifier, firstSequenceNumber);
    }

    @Override
    public Stream<? extends TrackedEventMessage<?>> readEvents(TrackingToken trackingToken, boolean mayBlock) {
        return reads.readEvents(trackingToken, mayBlock);
    }

    @Override
    public synchronized Optional<Long> lastSequenceNumberFor(String aggregateIdentifier) {
        ensureOpen();
        return current.lastSequenceNumberFor(aggregateIdentifier);
    }

    @Override
    public synchronized TrackingToken createTailToken() {
        ensureOpen();
        return current.lastSeq() == 0 ? null : new org.axonframework.eventhandling.GlobalSequenceTrackingToken(0);
    }

    @Override
    public synchronized TrackingToken createHeadToken() {
        ensureOpen();
        return current.createHeadToken();
    }

    /** Within the newest segment: just before its first event at or after {@code dateTime}. */
    @Override
    public synchronized TrackingToken createTokenAt(Instant dateTime) {
        ensureOpen();
        return current.createTokenAt(dateTime);
    }

    void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the store " + directory + " is closed");
        }
    }

    /** Closes the current segment (forced as the policy says) and waits for the background work queued. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            current.close();
        } finally {
            try {
                tidying.close();
            } finally {
                lock.close(); // last: the background work on the directory is done
            }
        }
    }
}
