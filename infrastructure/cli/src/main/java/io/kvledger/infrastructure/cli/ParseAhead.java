package io.kvledger.infrastructure.cli;

import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * A log read on a second thread, in batches, while the caller folds the batch before: the parse and
 * the fold each get a core. The caller sees exactly what it would reading the log itself: the same
 * entries in the same order, then the same end or the same exception (the reader's own object), at the
 * same place, after every entry before it. Memory stays flat: a few batches are queued at most, each
 * of at most {@value #BATCH_ENTRIES} entries or about {@value #BATCH_BYTES} bytes of lines.
 *
 * <p>{@link #close()} stops and joins the thread, whether the log was read to its end or not; no thread
 * outlives it.
 */
final class ParseAhead implements AutoCloseable {

    static final int BATCH_ENTRIES = 512;
    static final long BATCH_BYTES = 1 << 20;
    /** Batches queued beyond the one being read, so the queue holds a few MB however long the log. */
    static final int QUEUED_BATCHES = 3;

    /** Entries read together, then how the reading stopped after them, if it did. */
    private record Batch(List<LogEntry> entries, long position, Throwable failure, boolean last) {
    }

    private final EventLogReader reader;
    private final LongSupplier position;
    /** Applied to each entry on the parse thread, in log order: work taken off the folding thread. */
    private final UnaryOperator<LogEntry> prepare;
    private final Thread thread;
    private final ArrayDeque<Batch> queue = new ArrayDeque<>();
    /** {@code queue}'s size as last changed, for {@link #consumerBehind} on the parse thread. */
    private volatile int queued;
    private boolean closed;
    /** Set when the parse thread ends; if it ends without handing over a last batch, {@code lost} says why. */
    private boolean finished;
    private Throwable lost;

    private Batch current;
    private int next;
    private long delivered;

    /**
     * Starts reading.
     *
     * @param position where the input is, for progress; read on the parse thread after each batch
     */
    ParseAhead(EventLogReader reader, LongSupplier position) {
        this(reader, position, UnaryOperator.identity());
    }

    /**
     * Starts reading, each entry passed through {@code prepare} on the parse thread before it is handed over.
     *
     * @param position where the input is, for progress; read on the parse thread after each batch
     * @param prepare  gives the entry the caller sees instead (an equal one); its failure is the reader's, where it happened
     */
    ParseAhead(EventLogReader reader, LongSupplier position, UnaryOperator<LogEntry> prepare) {
        this(reader, position, (Function<BooleanSupplier, UnaryOperator<LogEntry>>) consumerBehind -> prepare);
    }

    /**
     * Starts reading, each entry passed through the preparation {@code prepare} makes on the parse thread; it is
     * given whether the caller is behind ({@link #consumerBehind}), so it can take work only while it is.
     */
    ParseAhead(EventLogReader reader, LongSupplier position,
               Function<BooleanSupplier, UnaryOperator<LogEntry>> prepare) {
        this.reader = reader;
        this.position = position;
        this.prepare = prepare.apply(this::consumerBehind);
        this.thread = new Thread(this::produce, "kvledger-parse-ahead");
        thread.setDaemon(true); // never keeps a JVM alive; close() stops it anyway
        thread.start();
    }

    /** The next entry, or {@code null} at the end; a failure of the reader is thrown where it happened. */
    LogEntry next() throws IOException, MalformedLogException {
        while (current == null || next == current.entries().size()) {
            if (current != null && current.last()) {
                if (current.failure() != null) {
                    throw rethrown(current.failure());
                }
                return null;
            }
            current = take();
            next = 0;
            delivered = current.position();
        }
        return current.entries().get(next++);
    }

    /** The input's position after the batch of the entry last returned: progress counts what was handed out. */
    long position() {
        return delivered;
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            queue.clear();
            notifyAll();
        }
        thread.interrupt();
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true; // the thread is stopping; wait for it all the same
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized Batch take() throws InterruptedIOException {
        while (queue.isEmpty()) {
            if (finished) {
                // Only when even the failure could not be handed over (memory ran out twice): never wait forever.
                throw new IllegalStateException("the log's parse thread stopped", lost);
            }
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while reading the log");
            }
        }
        Batch batch = queue.removeFirst();
        queued = queue.size();
        notifyAll();
        return batch;
    }

    /** Hands a batch over; {@code false} when the scan was closed meanwhile. */
    private synchronized boolean put(Batch batch) {
        while (!closed && queue.size() >= QUEUED_BATCHES) {
            try {
                wait();
            } catch (InterruptedException e) {
                return false; // only close() interrupts
            }
        }
        if (closed) {
            return false;
        }
        queue.addLast(batch);
        queued = queue.size();
        notifyAll();
        return true;
    }

    /**
     * Whether the caller is behind the parse: two batches or more wait for it. Read by the parse thread without
     * the lock (a hint: a stale answer only moves work from one thread to the other).
     */
    private boolean consumerBehind() {
        return queued >= 2;
    }

    private synchronized boolean isClosed() {
        return closed;
    }

    private void produce() {
        try {
            read();
        } catch (Throwable e) {
            synchronized (this) {
                lost = e;
            }
        } finally {
            synchronized (this) {
                finished = true;
                notifyAll();
            }
        }
    }

    private void read() {
        List<LogEntry> entries = new ArrayList<>(BATCH_ENTRIES);
        long batchStart = reader.bytesRead();
        try {
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                entries.add(prepare.apply(entry));
                if (entries.size() == BATCH_ENTRIES || reader.bytesRead() - batchStart >= BATCH_BYTES) {
                    if (!put(new Batch(entries, position.getAsLong(), null, false)) || isClosed()) {
                        return;
                    }
                    entries = new ArrayList<>(BATCH_ENTRIES);
                    batchStart = reader.bytesRead();
                }
            }
            put(new Batch(entries, position.getAsLong(), null, true));
        } catch (IOException | MalformedLogException | RuntimeException | Error e) {
            // Delivered after the entries before it; after close() nobody is there to see it, and put drops it.
            put(new Batch(entries, position.getAsLong(), e, true));
        }
    }

    private static IOException rethrown(Throwable failure) throws IOException, MalformedLogException {
        if (failure instanceof IOException e) {
            throw e;
        }
        if (failure instanceof MalformedLogException e) {
            throw e;
        }
        if (failure instanceof RuntimeException e) {
            throw e;
        }
        throw (Error) failure;
    }
}
