package io.kvledger.infrastructure.store;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's one writer thread: appends are encoded, written and forced there, so that the host's
 * scheduler thread spends no CPU on them. Tasks run one at a time in the order given, so what the
 * thread touches needs no lock of its own. Tasks queued while the thread works make one batch: after
 * each batch it runs {@code endOfBatch} (the store's group commit: one force for every append of the
 * batch). One delayed task at a time (the force of {@code fsync interval:MS}); it is dropped when the
 * writer closes.
 */
final class StoreWriter implements AutoCloseable {

    /** The most tasks one batch runs before its end, so that a host that never pauses still gets its forces. */
    static final int MAX_BATCH = 256;

    /** The longest the writer sleeps between looks at its queue when nothing woke it (it starts at 50 us and doubles while idle). */
    static final long MAX_IDLE_PARK_NANOS = 1_000_000;

    private static final Logger LOG = LoggerFactory.getLogger(StoreWriter.class);

    private static final Runnable STOP = () -> { };

    private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
    private final Runnable endOfBatch;
    private final Thread thread;
    private volatile boolean closed;
    // The delayed task and when it is due; touched on the writer thread only.
    private Runnable delayed;
    private long delayedAt;

    StoreWriter(String name, Runnable endOfBatch) {
        this.endOfBatch = endOfBatch;
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true); // a host that exits without closing the store loses only what is still queued
        thread.start();
    }

    /**
     * Runs {@code task} on the writer thread after what was handed over before it, and waits for it,
     * uninterruptibly (the interrupt is kept for the caller). On a closed writer, runs nothing and
     * returns {@code null}: everything handed over before was done when it closed.
     */
    <T> T call(Supplier<T> task) {
        if (Thread.currentThread() == thread) {
            return task.get();
        }
        CompletableFuture<T> result = new CompletableFuture<>();
        if (!offer(() -> {
            try {
                result.complete(task.get());
            } catch (RuntimeException | Error e) {
                result.completeExceptionally(e);
            }
        })) {
            return null;
        }
        LockSupport.unpark(thread);
        return StoreWriter.await(result);
    }

    /**
     * Runs {@code task} on the writer thread, after what was handed over before it, without waiting for
     * it and without waking the writer: it finds the task within {@link #MAX_IDLE_PARK_NANOS}. Waking a
     * thread on every step costs the caller more than the hand-over: on a busy machine the woken writer
     * often takes the caller's own core at once.
     */
    void submit(Runnable task) {
        if (!offer(task)) {
            throw new IllegalStateException("the store's writer " + thread.getName() + " is closed");
        }
    }

    /** As {@link #submit}, waking the writer: for a task someone waits for. */
    void submitNow(Runnable task) {
        submit(task);
        LockSupport.unpark(thread);
    }

    /** On the writer thread only: runs {@code task} there after {@code delayNanos}, unless the writer closes first. */
    void later(Runnable task, long delayNanos) {
        if (delayed != null) {
            throw new IllegalStateException("one delayed task at a time");
        }
        delayed = task;
        delayedAt = System.nanoTime() + delayNanos;
    }

    /** The writer thread (for measuring its CPU time). */
    Thread thread() {
        return thread;
    }

    /**
     * Waits for {@code future} uninterruptibly (keeping the caller's interrupt) and returns its value,
     * throwing its failure as it was thrown.
     */
    static <T> T await(CompletableFuture<T> future) {
        try {
            return future.join(); // join() waits through interrupts and keeps the interrupt flag
        } catch (java.util.concurrent.CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(cause);
        }
    }

    private synchronized boolean offer(Runnable task) {
        if (closed) {
            return false;
        }
        queue.add(task);
        return true;
    }

    private void run() {
        boolean stopping = false;
        while (!stopping) {
            Runnable first = next();
            if (first == null) {
                continue; // the delayed task ran
            }
            int ran = 0;
            for (Runnable task = first; task != null; task = ran < MAX_BATCH ? queue.poll() : null) {
                if (task == STOP) {
                    stopping = true;
                    break;
                }
                runLogged(task);
                ran++;
            }
            runLogged(endOfBatch);
        }
    }

    /** A task reports its own failures (to its future, or to the store); one that throws anyway must not end the thread. */
    private void runLogged(Runnable task) {
        try {
            task.run();
        } catch (RuntimeException e) {
            LOG.error("{}: a task failed: {}", thread.getName(), e.toString(), e);
        }
    }

    /** The next task, waiting for one; {@code null} after running the delayed task that came due first. */
    private Runnable next() {
        long park = 50_000;
        while (true) {
            Runnable task = queue.poll();
            if (task != null) {
                return task;
            }
            long now = System.nanoTime();
            if (delayed != null && delayedAt - now <= 0) {
                Runnable due = delayed;
                delayed = null;
                runLogged(due);
                return null;
            }
            LockSupport.parkNanos(this, delayed == null ? park : Math.min(park, delayedAt - now));
            Thread.interrupted(); // only close() stops this thread, by its STOP task: an interrupt is not a request to
            park = Math.min(MAX_IDLE_PARK_NANOS, park * 2);
        }
    }

    /** Runs what was handed over before, drops the delayed task, and ends the thread. */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            queue.add(STOP);
        }
        LockSupport.unpark(thread);
        if (Thread.currentThread() == thread) {
            return;
        }
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
