package io.kvledger.infrastructure.store;

import io.kvledger.application.StepListener;
import io.kvledger.application.spi.StoreDurability;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.GlobalSequenceTrackingToken;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.DomainEventStream;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.EventStoreException;

/**
 * An Axon event storage engine over one append-only JSON Lines file that is at the same time the
 * contract's event log (section 3): the command line's tools read it as it is, so what is stored and
 * what is captured cannot diverge. See {@link StoreLines} for the line and {@link StoreScan} for what
 * opening checks and repairs.
 *
 * <ul>
 *   <li>An append is checked on the calling thread, then encoded and written as one write at the end
 *       of the file on the store's writer thread ({@link StoreWriter}). Under {@code fsync always} it
 *       returns once written and forced (forces are shared by the appends queued together); under
 *       {@code never} and {@code interval} it returns once queued, before it is written
 *       ({@link #stored()}, {@link #flush()} wait for it). Axon appends once per unit of work, so a
 *       step is one write. A write that fails after its append returned leaves the file ending at
 *       the last whole append written, and the store refuses every later append (and its close
 *       throws) until it is reopened.</li>
 *   <li>An event whose aggregate sequence number is not the aggregate's next is refused, as Axon's
 *       own engines refuse a duplicate key: {@code AggregateStreamCreationException} for a second
 *       first event, {@code ConcurrencyException} otherwise. Nothing of that append is written.</li>
 *   <li>Only domain events with an {@link EngineEvent} payload are stored, and a store's first event
 *       is an {@link EngineConfigured}, so the file is always a valid log.</li>
 *   <li>The engine's state is snapshotted every N events beside the file ({@link SnapshotFile}), from
 *       the state the facade hands over after each step ({@link #snapshotListener()}); opening uses a
 *       valid snapshot and reads only the lines after it. Axon's own snapshotter is not used.</li>
 *   <li>Tracking tokens are {@link GlobalSequenceTrackingToken}s of a line's seq; {@code mayBlock} is
 *       ignored. The file is locked while open: a second store on it, in any process, fails.</li>
 *   <li>Several aggregates may share a file (then it is not one engine's contract log); a load skips
 *       other aggregates' lines. Not kept: Axon metadata and the aggregate type ({@link StoreLines}).</li>
 * </ul>
 *
 * <p>This class opens the store and is its face to Axon and the host; the work is done by its parts,
 * each with its own reason to change: the appends ({@link QueuedAppends}), the reads
 * ({@link StoreReads}), the snapshots ({@link StoreSnapshots}) and what a store directory reads of a
 * segment ({@link SegmentBounds}). They share the store's lock.
 */
public final class JsonlEventStorageEngine implements EventStorageEngine, StoreDurability, SeqNumberedStore, AutoCloseable {

    /**
     * The most appends queued for the writer and not written yet; one more waits for the oldest. It
     * bounds the memory a host that outruns the disk takes, and what a process crash can lose under
     * {@code never} and {@code interval}.
     */
    public static final int MAX_QUEUED_APPENDS = 64;

    private final Path file;
    private final StoreFile storeFile;
    private final FsyncPolicy fsync;
    private final RecoveryReport recovery;
    private final StoreIndex index;
    private final QueuedAppends appends;
    private final StoreReads reads;
    private final SegmentBounds segment;
    private boolean closed;
    private final StoreSnapshots snapshots;
    private final String snapshotRejected;
    private final boolean openedFromSnapshot;
    private final StoreScan.Unchecked unchecked;

    /**
     * Events between two snapshots when none is given: about 42 steps of 256 decoding requests (2.6 MB
     * of log), so opening reads at most that many lines after the snapshot.
     */
    public static final long DEFAULT_SNAPSHOT_EVERY = 25_000;

    private JsonlEventStorageEngine(StoreFile storeFile, FsyncPolicy fsync, StoreScan.Result scan,
            SnapshotFile.Loaded snapshot, long snapshotEvery, SnapshotFile.Snapshot base, WriteGate gate) {
        this.file = storeFile.path();
        this.storeFile = storeFile;
        this.fsync = fsync;
        this.recovery = scan.report();
        this.index = scan.index();
        this.appends = new QueuedAppends(this, storeFile, fsync, index, scan.end(),
                snapshot.snapshot() == null ? null : snapshot.snapshot().engineId(), gate);
        this.segment = new SegmentBounds(this, storeFile, index, appends, base);
        this.reads = new StoreReads(this, storeFile, index, appends, segment.fileBaseSeq());
        this.snapshots = new StoreSnapshots(this, storeFile, index, appends, snapshotEvery, fsync != FsyncPolicy.NEVER,
                snapshot.snapshot());
        this.snapshotRejected = snapshot.rejected();
        this.openedFromSnapshot = snapshot.snapshot() != null;
        this.unchecked = scan.unchecked();
    }

    /**
     * What opening read without a checksum: {@code null} when every step it read carried one (store
     * format 3), else a sentence saying which lines (a store written before checksums, format 1 or 2).
     */
    public String uncheckedSteps() {
        if (unchecked.steps() == 0) {
            return null;
        }
        return "its steps up to seq " + unchecked.lastSeq() + " (" + unchecked.steps() + " of them) carry no checksums:"
                + " they were written before store format " + StepChecksums.FORMAT + "; the steps appended from now on carry one";
    }

    /**
     * Opens (or creates) the store, cutting a torn end (see {@link #recoveryReport()}).
     *
     * @throws StoreCorruptedException when a line that is not a torn end cannot be read; the file is left as it was
     * @throws StoreLockedException    when another store has the file open
     * @throws EventStoreException     when the file cannot be opened
     */
    public static JsonlEventStorageEngine open(Path file, FsyncPolicy fsync) {
        return open(file, fsync, DEFAULT_SNAPSHOT_EVERY);
    }

    /**
     * Opens (or creates) the store, as {@link #open(Path, FsyncPolicy)}, snapshotting the engine's state
     * every {@code snapshotEvery} events (never when 0). A valid snapshot beside the file
     * ({@code <file>.snapshot}) is used: only the lines after it are read. One that fails its checks is
     * reported ({@link #snapshotRejected()}, and a warning) and the store opens from its events.
     */
    public static JsonlEventStorageEngine open(Path file, FsyncPolicy fsync, long snapshotEvery) {
        return open(file, fsync, snapshotEvery, null);
    }

    /**
     * Opens (or creates) a segment of a store directory that begins after {@code base} (none for the
     * first segment): its lines are seq {@code base.seq() + 1} on, and without a valid snapshot of its
     * own it opens from the base ({@code SegmentedEventStorageEngine} (kvledger-store-segments)).
     */
    static JsonlEventStorageEngine open(Path file, FsyncPolicy fsync, long snapshotEvery, SnapshotFile.Snapshot base) {
        return open(file, fsync, snapshotEvery, base, WriteGate.NONE);
    }

    /** For tests: as {@link #open(Path, FsyncPolicy)}, this store's writer passing {@code gate} before each write. */
    static JsonlEventStorageEngine open(Path file, FsyncPolicy fsync, WriteGate gate) {
        return open(file, fsync, DEFAULT_SNAPSHOT_EVERY, null, gate);
    }

    private static JsonlEventStorageEngine open(Path file, FsyncPolicy fsync, long snapshotEvery, SnapshotFile.Snapshot base,
            WriteGate gate) {
        if (snapshotEvery < 0) {
            throw new IllegalArgumentException("snapshotEvery must be >= 0, was " + snapshotEvery);
        }
        StoreFile.Opened opened = StoreFile.open(file, fsync != FsyncPolicy.NEVER, base);
        return new JsonlEventStorageEngine(opened.file(), fsync, opened.scan(), opened.snapshot(), snapshotEvery, base, gate);
    }

    /** Where this file stands as a segment of a store directory: its base and its end. */
    SegmentBounds segment() {
        return segment;
    }

    synchronized boolean isClosed() {
        return closed;
    }

    /** Why the snapshot beside the file was not used on open; {@code null} when it was or there was none. */
    public String snapshotRejected() {
        return snapshotRejected;
    }

    /** The seq of the last line the latest snapshot covers (0 when there is none). */
    public long snapshotSeq() {
        SnapshotFile.Snapshot latest = snapshots.latest();
        return latest == null ? 0 : latest.seq();
    }

    /** Whether the store opened from a snapshot (reading only the lines after it). */
    public boolean openedFromSnapshot() {
        return openedFromSnapshot;
    }

    /** The seq of the last line the index no longer holds (lines after the latest snapshot are indexed). */
    synchronized long indexBaseSeq() {
        return index.baseSeq();
    }

    /** The listener a facade over this store is built with, so that the store can snapshot its state. */
    public StepListener snapshotListener() {
        return StoreSnapshots.listener(this);
    }

    /**
     * The state after the last append (on the appending thread): when a snapshot is due, the writer
     * thread writes it once the appends before it are written.
     */
    synchronized void offerState(EngineState state) {
        if (!closed) {
            snapshots.offer(state);
        }
    }

    /** What opening cut from the end of the file; {@link RecoveryReport#CLEAN} when nothing. */
    public RecoveryReport recoveryReport() {
        return recovery;
    }

    public Path file() {
        return file;
    }

    /** When appends are forced to disk. */
    public FsyncPolicy fsyncPolicy() {
        return fsync;
    }

    /** The seq of the last event appended (0 when empty): every append that has returned is at or below it, written or queued. */
    public synchronized long lastSeq() {
        return appends.lastSeq();
    }

    /**
     * The seq of the last event written to the file: every event at or below it survives a process
     * crash. Under {@code always} it is {@link #lastSeq()} whenever an append has returned; under
     * {@code never} and {@code interval} it follows {@link #lastSeq()} as the writer thread catches up.
     */
    public synchronized long writtenSeq() {
        return index.lastSeq();
    }

    /** How many times the file was forced to the disk since the store opened: fewer than the appends when forces are shared. */
    public long forces() {
        return appends.forces();
    }

    /**
     * The seq up to which this store has forced the file to the disk: every event at or below it
     * survives a machine crash. Under {@code always} it is {@link #lastSeq()} whenever an append has
     * returned (unless {@link #pipelined}); under {@code interval:MS} it catches up at most MS (plus the force) after an append;
     * under {@code never} it stays 0.
     */
    public long forcedSeq() {
        return appends.forcedSeq();
    }

    /** The thread that encodes, writes and forces appends (for measuring its CPU time). */
    public Thread writerThread() {
        return appends.writerThread();
    }

    /**
     * Checks the append here and queues it for the writer thread, which encodes, writes and forces it:
     * the calling (scheduler) thread spends no CPU on encoding or writing. Under {@code always} (unless
     * {@link #pipelined}) it returns once the append is written and forced; else once queued. Waits
     * while {@link #MAX_QUEUED_APPENDS} appends are queued.
     */
    @Override
    public void appendEvents(List<? extends EventMessage<?>> events) {
        if (!events.isEmpty()) {
            appends.append(events, this::ensureOpen);
        }
    }

    /**
     * What the writer thread does before each append's write: nothing, but a test gives a store of its
     * own a gate (package-private {@link #open(Path, FsyncPolicy, WriteGate)}) to hold or fail that
     * store's writer, and no other store's.
     */
    interface WriteGate {
        WriteGate NONE = file -> { };

        /** Holds the writer as long as it likes, or fails the write of an append to {@code file}. */
        void beforeWrite(Path file) throws IOException;
    }

    @Override
    public CompletableFuture<Void> stored() {
        return appends.stored();
    }

    /**
     * Returns once every append made so far is written and, unless the policy is {@code never}, forced.
     *
     * @throws EventStoreException when the store failed to write or force one of them
     */
    @Override
    public void flush() {
        appends.flush();
    }

    @Override
    public <T> T pipelined(Supplier<T> step) {
        return QueuedAppends.pipelined(step);
    }

    /** {@link #pipelined} for every store this thread appends to during {@code step}. */
    static <T> T runPipelined(Supplier<T> step) {
        return QueuedAppends.pipelined(step);
    }

    /** Before a read: waits until the appends taken are written, so that a read sees every append that returned. */
    void awaitWritten() {
        synchronized (this) {
            if (closed) {
                return;
            }
        }
        appends.awaitWritten();
    }

    void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the store " + file + " is closed");
        }
    }

    /** Axon's snapshotter is not used: the store takes its own snapshots ({@link #snapshotListener()}). */
    @Override
    public void storeSnapshot(DomainEventMessage<?> snapshot) {
        // Axon's snapshotter would fold the events again; the facade hands the state over instead.
    }

    /** The latest snapshot, as Axon's snapshot message: the aggregate itself, rebuilt from the state. */
    @Override
    public Optional<DomainEventMessage<?>> readSnapshot(String aggregateIdentifier) {
        return snapshots.message(aggregateIdentifier);
    }

    /**
     * Every line written so far, as the log reader reads it (unknown types included), through the
     * store's own descriptor: a host re-reads its open store here, never by opening the file again
     * (closing a second descriptor of a file drops the process's lock on it). Close the stream after.
     */
    public Stream<LogEntry> storedEntries() {
        return reads.entries();
    }

    @Override
    public DomainEventStream readEvents(String aggregateIdentifier, long firstSequenceNumber) {
        return reads.readEvents(aggregateIdentifier, firstSequenceNumber);
    }

    @Override
    public Stream<? extends TrackedEventMessage<?>> readEvents(TrackingToken trackingToken, boolean mayBlock) {
        return reads.readEvents(trackingToken);
    }

    /** The last sequence number taken, written or still queued: what the aggregate's next append follows. */
    @Override
    public synchronized Optional<Long> lastSequenceNumberFor(String aggregateIdentifier) {
        ensureOpen();
        long next = appends.nextSequence(aggregateIdentifier);
        return next == 0 ? Optional.empty() : Optional.of(next - 1);
    }

    /** Before the first line ({@code null} while the store is empty, as Axon's in-memory engine does). */
    @Override
    public TrackingToken createTailToken() {
        return reads.createTailToken();
    }

    /** At the last line: reading from it yields only what is appended later. */
    @Override
    public TrackingToken createHeadToken() {
        return reads.createHeadToken();
    }

    /** Just before the first event recorded at or after {@code dateTime}; the head when none. Reads the whole file. */
    @Override
    public TrackingToken createTokenAt(Instant dateTime) {
        return reads.createTokenAt(dateTime);
    }

    /**
     * Lets the writer write what is queued, forces what is not forced yet when the policy says so, and
     * releases the file.
     *
     * @throws EventStoreException when a write failed after its append had returned and no append or
     *                             flush has reported it yet: steps the host was told of are not stored
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            appends.close(); // outside the lock: the writer takes it to record what it wrote
        } finally {
            storeFile.close();
        }
    }
}
