package io.kvledger.infrastructure.store;

import io.kvledger.application.StepListener;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
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
 *       of the file on the store's writer thread ({@link StoreWriter}); it returns once the operating
 *       system has all of it, forced to the disk as the {@link FsyncPolicy} says. Axon appends once
 *       per unit of work, so a step is one write. There is no later rollback.</li>
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
 */
public final class JsonlEventStorageEngine implements EventStorageEngine, AutoCloseable {

    private final Path file;
    private final StoreFile storeFile;
    private final FsyncPolicy fsync;
    private final RecoveryReport recovery;
    private final StoreIndex index;
    private final StoreWriter writer;
    // Written on the writer thread only (while the appending thread waits), read after it finishes.
    private final StoreLineEncoder encoder = new StoreLineEncoder();
    private long end;
    private final StoreForcing forcing;
    private boolean closed;
    private final StoreSnapshots snapshots;
    private final String snapshotRejected;
    private final boolean openedFromSnapshot;
    private String lastAggregate;
    // The seq before the file's first line: 0, or a segment's base seq (its first line is baseSeq + 1).
    private final long fileBaseSeq;
    private final long fileBaseSequenceNumber;

    /**
     * Events between two snapshots when none is given: about 42 steps of 256 decoding requests (2.6 MB
     * of log), so opening reads at most that many lines after the snapshot.
     */
    public static final long DEFAULT_SNAPSHOT_EVERY = 25_000;

    private JsonlEventStorageEngine(StoreFile storeFile, FsyncPolicy fsync, StoreScan.Result scan,
            SnapshotFile.Loaded snapshot, long snapshotEvery, SnapshotFile.Snapshot base) {
        this.fileBaseSeq = base == null ? 0 : base.seq();
        this.fileBaseSequenceNumber = base == null ? -1 : base.sequenceNumber();
        this.file = storeFile.path();
        this.storeFile = storeFile;
        this.fsync = fsync;
        this.recovery = scan.report();
        this.index = scan.index();
        this.end = scan.end();
        this.writer = new StoreWriter("kvledger-store-writer " + file.getFileName());
        this.forcing = new StoreForcing(storeFile, fsync, writer, index.lastSeq());
        this.snapshots = new StoreSnapshots(file, snapshotEvery, fsync != FsyncPolicy.NEVER, snapshot.snapshot());
        this.snapshotRejected = snapshot.rejected();
        this.openedFromSnapshot = snapshot.snapshot() != null;
        this.lastAggregate = snapshot.snapshot() == null ? null : snapshot.snapshot().engineId();
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
     * own it opens from the base ({@link SegmentedEventStorageEngine}).
     */
    static JsonlEventStorageEngine open(Path file, FsyncPolicy fsync, long snapshotEvery, SnapshotFile.Snapshot base) {
        if (snapshotEvery < 0) {
            throw new IllegalArgumentException("snapshotEvery must be >= 0, was " + snapshotEvery);
        }
        StoreFile.Opened opened = StoreFile.open(file, fsync != FsyncPolicy.NEVER, base);
        return new JsonlEventStorageEngine(opened.file(), fsync, opened.scan(), opened.snapshot(), snapshotEvery, base);
    }

    /** The seq before this file's first line: 0, or the base seq of a segment. */
    long fileBaseSeq() {
        return fileBaseSeq;
    }

    /** The aggregate sequence number of the last message before this file (-1 when it has no base). */
    long fileBaseSequenceNumber() {
        return fileBaseSequenceNumber;
    }

    synchronized boolean isClosed() {
        return closed;
    }

    /** The bytes of whole appends in the file. */
    synchronized long endOffset() {
        return end;
    }

    /** Where the state after the last append stands (for a segment's roll); {@code null} when nothing is stored. */
    synchronized StoreSnapshots.Point lastPoint() {
        if (lastAggregate == null || index.lastSeq() == 0) {
            return null;
        }
        return new StoreSnapshots.Point(lastAggregate, index.nextSequence(lastAggregate) - 1, index.lastSeq(), end);
    }

    /** The file's last line (newline excluded), which a roll's next segment records the CRC of. */
    synchronized byte[] lastLine() throws IOException {
        return SnapshotFile.lineEndingAt(storeFile.channel(), end);
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

    /** The state after the last append (on the appending thread): snapshotted when one is due. */
    synchronized void offerState(EngineState state) {
        SnapshotFile.Snapshot written = snapshots.latest();
        if (written != null) {
            index.rebase(written.seq()); // what the written snapshot covers is read from the file's start if ever
        }
        long seq = index.lastSeq();
        if (closed || forcing.broken() != null || lastAggregate == null || !snapshots.due(seq)) {
            return;
        }
        StoreSnapshots.Point point = new StoreSnapshots.Point(lastAggregate, index.nextSequence(lastAggregate) - 1, seq, end);
        writer.submit(snapshots.take(storeFile, point, state));
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

    /** The seq of the last event stored (0 when empty): an append that has returned is at or below it. */
    public synchronized long lastSeq() {
        return index.lastSeq();
    }

    /**
     * The seq up to which this store has forced the file to the disk: every event at or below it
     * survives a machine crash. Under {@code always} it is {@link #lastSeq()} whenever an append has
     * returned; under {@code interval:MS} it catches up at most MS (plus the force) after an append;
     * under {@code never} it stays 0.
     */
    public long forcedSeq() {
        return forcing.forcedSeq();
    }

    /** The thread that encodes, writes and forces appends (for measuring its CPU time). */
    public Thread writerThread() {
        return writer.thread();
    }

    /**
     * Checks the append here, then has the writer thread encode, write and force it, and returns once
     * that is done: the calling (scheduler) thread spends no CPU on encoding or writing.
     */
    @Override
    public void appendEvents(List<? extends EventMessage<?>> events) {
        if (events.isEmpty()) {
            return;
        }
        synchronized (this) {
            ensureWritable();
            AppendChecks.Append append = AppendChecks.check(events, index);
            lastAggregate = append.messages().get(append.messages().size() - 1).getAggregateIdentifier();
            writer.call(() -> {
                write(append);
                return null;
            });
        }
    }

    /** On the writer thread: one line per domain event, a step's message spanning as many lines as it has events. */
    private void write(AppendChecks.Append append) {
        EncodedAppend encoded = EncodedAppend.encode(encoder, append, index.lastSeq(), end);
        long position;
        try {
            position = storeFile.write(encoder.bytes(), end);
        } catch (IOException e) {
            forcing.undo(end, e);
            throw new EventStoreException("cannot append to " + file + ": "
                    + (e.getMessage() == null ? "an I/O error" : e.getMessage()), e);
        }
        encoded.indexInto(index);
        end = position;
        forcing.written(index.lastSeq());
    }

    private void ensureWritable() {
        ensureOpen();
        if (forcing.broken() != null) {
            throw new EventStoreException(forcing.broken());
        }
    }

    private void ensureOpen() {
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

    @Override
    public DomainEventStream readEvents(String aggregateIdentifier, long firstSequenceNumber) {
        long seqBefore;
        long lastSequence;
        long from;
        long until;
        long first = Math.max(0, firstSequenceNumber);
        synchronized (this) {
            ensureOpen();
            long next = index.nextSequence(aggregateIdentifier);
            if (first >= next) {
                return DomainEventStream.empty();
            }
            // Lines before the latest snapshot are not indexed: read from the file start.
            long firstSeq = index.seqOf(aggregateIdentifier, first).orElse(fileBaseSeq + 1);
            seqBefore = firstSeq - 1;
            lastSequence = next - 1;
            from = firstSeq == fileBaseSeq + 1 ? 0 : index.offsetOf(firstSeq);
            until = end;
        }
        Stream<DomainEventMessage<?>> events = StoreMessages.of(storeFile.entries(from, seqBefore, until))
                .filter(lines -> aggregateIdentifier.equals(lines.get(0).envelope().aggregateId()))
                .<DomainEventMessage<?>>map(StoreLines::domainMessage)
                .filter(message -> message.getSequenceNumber() >= first && message.getSequenceNumber() <= lastSequence);
        return DomainEventStream.of(events, () -> lastSequence);
    }

    @Override
    public Stream<? extends TrackedEventMessage<?>> readEvents(TrackingToken trackingToken, boolean mayBlock) {
        long after = Math.max(0, StoreLines.seqOf(trackingToken));
        long from;
        long until;
        boolean indexed;
        synchronized (this) {
            ensureOpen();
            if (after >= index.lastSeq()) {
                return Stream.empty();
            }
            indexed = after >= index.baseSeq();
            from = indexed ? index.offsetOf(after + 1) : 0;
            until = end;
        }
        return StoreMessages.of(storeFile.entries(from, indexed ? after : fileBaseSeq, until))
                .filter(lines -> lines.get(lines.size() - 1).seq() > after)
                .map(StoreLines::trackedMessage);
    }

    @Override
    public synchronized Optional<Long> lastSequenceNumberFor(String aggregateIdentifier) {
        ensureOpen();
        long next = index.nextSequence(aggregateIdentifier);
        return next == 0 ? Optional.empty() : Optional.of(next - 1);
    }

    /** Before the first line ({@code null} while the store is empty, as Axon's in-memory engine does). */
    @Override
    public synchronized TrackingToken createTailToken() {
        return index.lastSeq() == 0 ? null : new GlobalSequenceTrackingToken(0);
    }

    /** At the last line: reading from it yields only what is appended later. */
    @Override
    public synchronized TrackingToken createHeadToken() {
        return index.lastSeq() == 0 ? null : new GlobalSequenceTrackingToken(index.lastSeq());
    }

    /** Just before the first event recorded at or after {@code dateTime}; the head when none. Reads the whole file. */
    @Override
    public TrackingToken createTokenAt(Instant dateTime) {
        try (Stream<LogEntry> all = storeFile.entries(0, fileBaseSeq, endSnapshot())) {
            // Only a message's first line has the envelope, so the first line found begins a message.
            return all.filter(entry -> entry.envelope() != null && !entry.envelope().timestamp().isBefore(dateTime))
                    .findFirst()
                    .<TrackingToken>map(entry -> new GlobalSequenceTrackingToken(entry.seq() - 1))
                    .orElseGet(this::createHeadToken);
        }
    }

    private synchronized long endSnapshot() {
        ensureOpen();
        return end;
    }

    /** Lets the writer finish, forces what is not forced yet when the policy says so, and releases the file. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        writer.close();
        try {
            forcing.close();
        } finally {
            storeFile.close();
        }
    }
}
