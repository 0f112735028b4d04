package io.kvledger.infrastructure.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventsourcing.eventstore.EventStoreException;

/**
 * The write side of a store file: appends checked on the calling thread against what the store has
 * taken ({@link AcceptedAppends}), queued for the writer thread ({@link StoreWriter}), and there
 * encoded, written at the end of the file, indexed and forced ({@link StoreForcing}). What it shares
 * with the store's reads (the index, the end of the file) is guarded by the store's lock.
 */
final class QueuedAppends {

    /** Set while this thread's appends must not wait for the store whatever the policy ({@link #pipelined}). */
    private static final ThreadLocal<Boolean> PIPELINED = ThreadLocal.withInitial(() -> Boolean.FALSE);

    private final Object lock;
    private final Path file;
    private final StoreFile storeFile;
    private final FsyncPolicy fsync;
    private final StoreIndex index;
    private final AcceptedAppends accepted;
    private final StoreWriter writer;
    private final StoreForcing forcing;
    // Used on the writer thread only.
    private final StoreLineEncoder encoder = new StoreLineEncoder();
    private final JsonlEventStorageEngine.WriteGate gate; // a test's, per store; none in production
    private final Semaphore queueRoom = new Semaphore(JsonlEventStorageEngine.MAX_QUEUED_APPENDS);
    // Changed on the writer thread only, under the lock (read under it elsewhere).
    private long end;
    // Guarded by the lock.
    private CompletableFuture<Void> lastAppend = CompletableFuture.completedFuture(null);
    private String lastAggregate;
    // Whether the failure that broke the store was thrown to a caller (else close throws it).
    private volatile boolean failureReported;

    QueuedAppends(Object lock, StoreFile storeFile, FsyncPolicy fsync, StoreIndex index, long end, String lastAggregate,
            JsonlEventStorageEngine.WriteGate gate) {
        this.gate = gate;
        this.lock = lock;
        this.file = storeFile.path();
        this.storeFile = storeFile;
        this.fsync = fsync;
        this.index = index;
        this.end = end;
        this.lastAggregate = lastAggregate;
        this.accepted = new AcceptedAppends(index);
        this.writer = new StoreWriter("kvledger-store-writer " + file.getFileName(), this::endOfBatch);
        this.forcing = new StoreForcing(storeFile, fsync, writer, index.lastSeq());
    }

    /**
     * Checks the append (and {@code ensureOpen}) under the lock and queues it; under {@code always},
     * unless {@link #pipelined}, waits until it is written and forced. Waits while
     * {@link JsonlEventStorageEngine#MAX_QUEUED_APPENDS} appends are queued.
     */
    void append(List<? extends EventMessage<?>> events, Runnable ensureOpen) {
        if (Thread.currentThread() == writer.thread()) {
            // A step from a future's callback: it would wait for the thread it runs on.
            throw new IllegalStateException("a step cannot be taken on the store's writer thread (" + writer.thread().getName()
                    + "): act on a stepAsync future with its ...Async methods and an executor of the host's");
        }
        boolean waits = fsync == FsyncPolicy.ALWAYS && !PIPELINED.get();
        queueRoom.acquireUninterruptibly(); // before the lock: the writer takes the lock to record its write
        CompletableFuture<Void> stored = new CompletableFuture<>();
        boolean queued = false;
        try {
            synchronized (lock) {
                ensureOpen.run();
                ensureWritable();
                AppendChecks.Append append = AppendChecks.check(events, accepted);
                long firstSeq = accepted.lastSeq() + 1;
                accepted.accept(append);
                lastAggregate = append.messages().get(append.messages().size() - 1).getAggregateIdentifier();
                lastAppend = stored;
                Runnable task = () -> write(append, firstSeq, waits, stored);
                if (fsync == FsyncPolicy.ALWAYS) {
                    writer.submitNow(task); // its force is waited for, by the step or by its future
                } else {
                    writer.submit(task);
                }
                queued = true;
            }
        } finally {
            if (!queued) {
                queueRoom.release();
            }
        }
        if (waits) {
            try {
                StoreWriter.await(stored);
            } catch (RuntimeException e) {
                failureReported = true;
                throw e;
            }
        }
    }

    /**
     * On the writer thread: one line per domain event, a step's message spanning as many lines as it
     * has events, in one write. A failure cuts what the write left; the store goes on only when the
     * append's caller is waiting for it and nothing was queued after it (its step is rolled back),
     * else it refuses every later append: a step that returned is not stored.
     */
    private void write(AppendChecks.Append append, long firstSeq, boolean waited, CompletableFuture<Void> stored) {
        try {
            String broken = forcing.broken();
            if (broken != null) {
                stored.completeExceptionally(new EventStoreException(broken));
                return;
            }
            long position;
            EncodedAppend encoded;
            try {
                gate.beforeWrite(file);
                encoded = EncodedAppend.encode(encoder, append, index.lastSeq(), end);
                position = storeFile.write(encoder.bytes(), end);
            } catch (IOException | RuntimeException e) {
                stored.completeExceptionally(failed(append, firstSeq, waited, e));
                return;
            }
            synchronized (lock) {
                encoded.indexInto(index);
                end = position;
            }
            forcing.written(index.lastSeq(), stored);
        } finally {
            queueRoom.release();
        }
    }

    private EventStoreException failed(AppendChecks.Append append, long firstSeq, boolean waited, Exception e) {
        IOException cause = e instanceof IOException io ? io : new IOException(e.toString(), e);
        forcing.undo(end, cause);
        String reason = e instanceof IOException ? (e.getMessage() == null ? "an I/O error" : e.getMessage()) : e.toString();
        synchronized (lock) {
            if (waited && forcing.broken() == null && accepted.lastSeq() == firstSeq - 1 + append.lines()) {
                accepted.resetToWritten();
                return new EventStoreException("cannot append to " + file + ": " + reason, e);
            }
            forcing.refuse("cannot append to " + file + " at seq " + firstSeq + ": " + reason + "; the steps from seq "
                    + firstSeq + " to " + accepted.lastSeq() + " had returned to the host but are not stored. The file"
                    + " ends at seq " + index.lastSeq() + ", after a whole step, and the store takes no more appends:"
                    + " reopen it to resume from there");
            return new EventStoreException(forcing.broken(), e);
        }
    }

    /** At the end of each of the writer's batches: the group commit. */
    private void endOfBatch() {
        forcing.endOfBatch();
    }

    /** Throws why the store refuses appends, if it does (the caller holds the lock). */
    void ensureWritable() {
        if (forcing.broken() != null) {
            failureReported = true;
            throw new EventStoreException(forcing.broken());
        }
    }

    /** Runs {@code task} on the writer thread after the appends queued before it. */
    void submit(Runnable task) {
        writer.submit(task);
    }

    /** Completes once every append queued so far is stored as the policy promises (a copy: callers cannot complete it). */
    CompletableFuture<Void> stored() {
        synchronized (lock) {
            return lastAppend.copy();
        }
    }

    /** Waits until every append queued so far is written and, unless the policy is {@code never}, forced. */
    void flush() {
        try {
            writer.call(() -> {
                forcing.forceNow();
                return null;
            });
        } catch (RuntimeException e) {
            failureReported = true;
            throw e;
        }
    }

    /** Runs {@code step} with this thread's appends, to every store, not waiting whatever the policy. */
    static <T> T pipelined(Supplier<T> step) {
        Boolean before = PIPELINED.get();
        PIPELINED.set(Boolean.TRUE);
        try {
            return step.get();
        } finally {
            PIPELINED.set(before);
        }
    }

    /** Waits until the appends taken are written (not while the caller holds the lock: the writer needs it). */
    void awaitWritten() {
        synchronized (lock) {
            if (accepted.allWritten()) {
                return;
            }
        }
        writer.call(() -> null);
    }

    /** The bytes of whole appends written (under the lock). */
    long end() {
        return end;
    }

    /** The seq of the last line taken, written or queued (under the lock). */
    long lastSeq() {
        return accepted.lastSeq();
    }

    /** The sequence number the aggregate's next append must have, after those taken (under the lock). */
    long nextSequence(String aggregateId) {
        return accepted.nextSequence(aggregateId);
    }

    /** The aggregate of the last append taken, or of the snapshot opened from; {@code null} when none (under the lock). */
    String lastAggregate() {
        return lastAggregate;
    }

    String broken() {
        return forcing.broken();
    }

    long forcedSeq() {
        return forcing.forcedSeq();
    }

    long forces() {
        return forcing.forces();
    }

    Thread writerThread() {
        return writer.thread();
    }

    /**
     * Lets the writer write what is queued and stop, then forces what is not forced yet when the policy
     * says so (not under the lock: the writer needs it).
     *
     * @throws EventStoreException when a write failed after its append had returned and nothing has reported it yet
     */
    void close() {
        writer.close();
        forcing.close();
        String broken = forcing.broken();
        if (broken != null && !failureReported) {
            failureReported = true;
            throw new EventStoreException(broken);
        }
    }
}
