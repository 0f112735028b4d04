package io.kvledger.infrastructure.store;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The store's one writer thread: appends are encoded, written and forced there, so that the host's
 * scheduler thread spends no CPU on them (it waits, parked, for its own append to finish). Tasks
 * run one at a time in the order given, so what the thread touches needs no lock of its own. A
 * delayed task (the force of {@code fsync interval:MS}) is dropped when the writer closes.
 */
final class StoreWriter implements AutoCloseable {

    private final ScheduledThreadPoolExecutor thread;
    private volatile Thread writerThread;

    StoreWriter(String name) {
        thread = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread t = new Thread(runnable, name);
            t.setDaemon(true); // a host that exits without closing the store loses nothing acknowledged
            writerThread = t;
            return t;
        });
        thread.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        thread.setRemoveOnCancelPolicy(true);
        thread.prestartCoreThread();
    }

    /**
     * Runs {@code task} on the writer thread and waits for it, uninterruptibly: an append that was
     * handed over is finished (or failed) before the caller goes on, interrupted or not.
     */
    <T> T call(Callable<T> task) {
        Future<T> result = thread.submit(task);
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return result.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (ExecutionException e) {
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
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Runs {@code task} on the writer thread, after what was handed over before it, without waiting for it. */
    void submit(Runnable task) {
        thread.execute(task);
    }

    /** Runs {@code task} on the writer thread after {@code delayNanos}, unless the writer closes first. */
    void later(Runnable task, long delayNanos) {
        thread.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
    }

    /** The writer thread (for measuring its CPU time). */
    Thread thread() {
        return writerThread;
    }

    /** Finishes the task running, drops delayed ones, and ends the thread. */
    @Override
    public void close() {
        thread.shutdown();
        boolean interrupted = false;
        while (true) {
            try {
                if (thread.awaitTermination(1, TimeUnit.MINUTES)) {
                    break;
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
