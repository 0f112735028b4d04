package io.kvledger.infrastructure.store;

import static java.lang.String.format;

import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.axonframework.modelling.command.ConcurrencyException;

/**
 * An Axon event storage engine over one append-only JSON Lines file that is at the same time the
 * contract's event log (section 3): the command line's tools read it as it is, so what is stored and
 * what is captured cannot diverge. See {@link StoreLines} for the line and {@link StoreScan} for what
 * opening checks and repairs.
 *
 * <ul>
 *   <li>An append is one write of all its lines at the end of the file; it returns once the operating
 *       system has them, forced to the disk as the {@link FsyncPolicy} says. Axon appends once per
 *       unit of work, so a step is one write. There is no later rollback.</li>
 *   <li>An event whose aggregate sequence number is not the aggregate's next is refused, as Axon's
 *       own engines refuse a duplicate key: {@link AggregateStreamCreationException} for a second
 *       first event, {@link ConcurrencyException} otherwise. Nothing of that append is written.</li>
 *   <li>Only domain events with an {@link EngineEvent} payload are stored, and a store's first event
 *       is an {@link EngineConfigured}, so the file is always a valid log.</li>
 *   <li>Snapshots are not kept ({@link #storeSnapshot} does nothing): the engine aggregate stays in the
 *       facade's cache, so it is folded from the file once per process.</li>
 *   <li>Tracking tokens are {@link GlobalSequenceTrackingToken}s holding a line's seq; {@code mayBlock}
 *       is ignored (a stream ends at the last line written when it was opened).</li>
 *   <li>The file is locked while the store is open: a second store on it, in any process, fails.</li>
 *   <li>Several aggregates may share a file, but it is the contract's log of one engine only when it
 *       holds one (as the facade and {@code kvledger run --store} write it); a load reads the file from
 *       the aggregate's first event on, skipping other aggregates' lines.</li>
 *   <li>Not kept: Axon metadata and the aggregate type (see {@link StoreLines}).</li>
 * </ul>
 */
public final class JsonlEventStorageEngine implements EventStorageEngine, AutoCloseable {

    private record Batch(byte[] bytes, long[] offsets, String[] aggregateIds, boolean[] starts) {
    }

    private final Path file;
    private final StoreFile storeFile;
    private final FsyncPolicy fsync;
    private final RecoveryReport recovery;
    private final StoreIndex index;
    private long end;
    private long lastForceNanos = System.nanoTime();
    private boolean unforced;
    private String broken;
    private boolean closed;

    private JsonlEventStorageEngine(StoreFile storeFile, FsyncPolicy fsync, StoreScan.Result scan) {
        this.file = storeFile.path();
        this.storeFile = storeFile;
        this.fsync = fsync;
        this.recovery = scan.report();
        this.index = scan.index();
        this.end = scan.end();
    }

    /**
     * Opens (or creates) the store, cutting a torn end (see {@link #recoveryReport()}).
     *
     * @throws StoreCorruptedException when a line that is not a torn end cannot be read; the file is left as it was
     * @throws StoreLockedException    when another store has the file open
     * @throws EventStoreException     when the file cannot be opened
     */
    public static JsonlEventStorageEngine open(Path file, FsyncPolicy fsync) {
        StoreFile.Opened opened = StoreFile.open(file, fsync != FsyncPolicy.NEVER);
        return new JsonlEventStorageEngine(opened.file(), fsync, opened.scan());
    }

    /** What opening cut from the end of the file; {@link RecoveryReport#CLEAN} when nothing. */
    public RecoveryReport recoveryReport() {
        return recovery;
    }

    public Path file() {
        return file;
    }

    public FsyncPolicy fsyncPolicy() {
        return fsync;
    }

    /** The seq of the last event stored (0 when empty): an append that has returned is at or below it. */
    public synchronized long lastSeq() {
        return index.lastSeq();
    }

    @Override
    public void appendEvents(List<? extends EventMessage<?>> events) {
        if (events.isEmpty()) {
            return;
        }
        synchronized (this) {
            ensureWritable();
            write(encode(events));
        }
    }

    /**
     * Validates and encodes the whole append before any byte of it is written: one line per domain
     * event, a step's message spanning as many lines as it has events.
     */
    private Batch encode(List<? extends EventMessage<?>> messages) {
        List<DomainEventMessage<?>> storable = new ArrayList<>(messages.size());
        List<List<EngineEvent>> contents = new ArrayList<>(messages.size());
        int lines = 0;
        for (EventMessage<?> message : messages) {
            DomainEventMessage<?> domain = storable(message);
            List<EngineEvent> events = StoreLines.eventsOf(domain);
            if (events.isEmpty()) {
                throw new IllegalArgumentException("a message with no events cannot be stored: " + message);
            }
            if (index.lastSeq() == 0 && lines == 0 && !(events.get(0) instanceof EngineConfigured)) {
                throw new IllegalArgumentException("a store's first event must be EngineConfigured, not " + events.get(0));
            }
            storable.add(domain);
            contents.add(events);
            lines += events.size();
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(lines * 256);
        long[] offsets = new long[lines];
        String[] aggregateIds = new String[lines];
        boolean[] starts = new boolean[lines];
        Map<String, Long> next = new HashMap<>();
        long seq = index.lastSeq();
        int line = 0;
        for (int m = 0; m < storable.size(); m++) {
            DomainEventMessage<?> message = storable.get(m);
            String aggregateId = message.getAggregateIdentifier();
            long expected = next.computeIfAbsent(aggregateId, index::nextSequence);
            checkSequence(message, expected);
            next.put(aggregateId, expected + 1);
            List<EngineEvent> events = contents.get(m);
            StoreLines.MessageEnvelope envelope = StoreLines.MessageEnvelope.of(message);
            for (int part = 0; part < events.size(); part++, line++) {
                offsets[line] = end + bytes.size();
                aggregateIds[line] = aggregateId;
                starts[line] = part == 0;
                bytes.writeBytes(StoreLines.encode(++seq, envelope, events.get(part), part, lines - 1 - line));
            }
        }
        return new Batch(bytes.toByteArray(), offsets, aggregateIds, starts);
    }

    private static DomainEventMessage<?> storable(EventMessage<?> event) {
        if (!(event instanceof DomainEventMessage<?> message) || message.getAggregateIdentifier() == null) {
            throw new IllegalArgumentException("only an aggregate's events can be stored, not " + event);
        }
        return message;
    }

    /** The checks Axon's engines make with a unique key on (aggregate, sequence number), plus no gaps. */
    private static void checkSequence(DomainEventMessage<?> message, long expected) {
        long actual = message.getSequenceNumber();
        String aggregateId = message.getAggregateIdentifier();
        if (actual == expected) {
            return;
        }
        if (actual == 0) {
            throw new AggregateStreamCreationException(format("Cannot reuse aggregate identifier [%s] to create aggregate"
                    + " [%s] since identifiers need to be unique.", aggregateId, message.getType()));
        }
        if (actual < expected) {
            throw new ConcurrencyException(format("An event for aggregate [%s] at sequence [%d] was already inserted",
                    aggregateId, actual));
        }
        throw new ConcurrencyException(format("An event for aggregate [%s] at sequence [%d] cannot be appended:"
                + " the next sequence number is [%d]", aggregateId, actual, expected));
    }

    private void write(Batch batch) {
        long position;
        try {
            position = storeFile.write(batch.bytes(), end);
        } catch (IOException e) {
            undo(e);
            throw new EventStoreException("cannot append to " + file + ": " + e, e);
        }
        for (int i = 0; i < batch.offsets().length; i++) {
            index.add(batch.offsets()[i], batch.aggregateIds()[i], batch.starts()[i]);
        }
        end = position;
        long now = System.nanoTime();
        if (!fsync.forceAfterAppend(lastForceNanos, now)) {
            unforced = true;
            return;
        }
        try {
            storeFile.force();
            lastForceNanos = now;
            unforced = false;
        } catch (IOException e) {
            // After a failed fsync the kernel may have dropped the pages: nothing can be promised any more.
            broken = "forcing " + file + " to disk failed: " + e;
            throw new EventStoreException(broken, e);
        }
    }

    /** Cuts what a failed write left; if even that fails, the store refuses appends until it is reopened. */
    private void undo(IOException cause) {
        try {
            storeFile.truncate(end);
        } catch (IOException e) {
            cause.addSuppressed(e);
            broken = "a failed append to " + file + " could not be undone (reopen the store to cut it): " + cause;
        }
    }

    private void ensureWritable() {
        ensureOpen();
        if (broken != null) {
            throw new EventStoreException(broken);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the store " + file + " is closed");
        }
    }

    /** Not kept: see the class comment. */
    @Override
    public void storeSnapshot(DomainEventMessage<?> snapshot) {
        // Snapshots are an optimisation this store does without.
    }

    @Override
    public Optional<DomainEventMessage<?>> readSnapshot(String aggregateIdentifier) {
        return Optional.empty();
    }

    @Override
    public DomainEventStream readEvents(String aggregateIdentifier, long firstSequenceNumber) {
        long firstSeq;
        long lastSeq;
        long lastSequence;
        long from;
        long until;
        synchronized (this) {
            ensureOpen();
            long next = index.nextSequence(aggregateIdentifier);
            long first = Math.max(0, firstSequenceNumber);
            if (first >= next) {
                return DomainEventStream.empty();
            }
            firstSeq = index.seqOf(aggregateIdentifier, first).orElseThrow();
            lastSequence = next - 1;
            from = index.offsetOf(firstSeq);
            until = end;
        }
        // Lines of other aggregates in between are read and skipped; one engine per file has none.
        Stream<DomainEventMessage<?>> events = StoreMessages.of(storeFile.entries(from, firstSeq - 1, until)
                        .filter(entry -> aggregateIdentifier.equals(entry.envelope().aggregateId())))
                .<DomainEventMessage<?>>map(StoreLines::domainMessage)
                .filter(message -> message.getSequenceNumber() <= lastSequence);
        return DomainEventStream.of(events, () -> lastSequence);
    }

    @Override
    public Stream<? extends TrackedEventMessage<?>> readEvents(TrackingToken trackingToken, boolean mayBlock) {
        long after = Math.max(0, seqOf(trackingToken));
        long from;
        long until;
        synchronized (this) {
            ensureOpen();
            if (after >= index.lastSeq()) {
                return Stream.empty();
            }
            from = index.offsetOf(after + 1);
            until = end;
        }
        return StoreMessages.of(storeFile.entries(from, after, until)).map(StoreLines::trackedMessage);
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
        try (Stream<LogEntry> all = storeFile.entries(0, 0, endSnapshot())) {
            // The lines of one message share its timestamp, so the first line found begins a message.
            return all.filter(entry -> !entry.envelope().timestamp().isBefore(dateTime))
                    .findFirst()
                    .<TrackingToken>map(entry -> new GlobalSequenceTrackingToken(entry.seq() - 1))
                    .orElseGet(this::createHeadToken);
        }
    }

    private synchronized long endSnapshot() {
        ensureOpen();
        return end;
    }

    private static long seqOf(TrackingToken token) {
        if (token == null) {
            return 0;
        }
        if (token instanceof GlobalSequenceTrackingToken global) {
            return global.getGlobalIndex();
        }
        throw new IllegalArgumentException("the store's tokens are GlobalSequenceTrackingTokens, not " + token);
    }

    /** Forces what is not forced yet when the policy says so, and releases the file. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (unforced && broken == null && fsync.forceOnClose()) {
                storeFile.force();
            }
        } catch (IOException e) {
            throw new EventStoreException("cannot force " + file + " to disk on close: " + e, e);
        } finally {
            storeFile.close();
        }
    }
}
