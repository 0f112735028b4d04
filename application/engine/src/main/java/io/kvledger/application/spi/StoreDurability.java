package io.kvledger.application.spi;

import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * How a store's appends become durable, for a store that writes them behind the step, on a thread of
 * its own (the file store): a step may return before its events are written, and the ledger's
 * {@code flush()} and {@code stepAsync} wait through this. A store whose append returns once the
 * events are stored (in memory, JDBC: a step is a transaction) is {@link #IMMEDIATE}.
 */
public interface StoreDurability {

    /** Appends are stored when they return: nothing to wait for. */
    StoreDurability IMMEDIATE = new StoreDurability() {
        @Override
        public CompletableFuture<Void> stored() {
            return CompletableFuture.completedFuture(null);
        }

        @Override
        public void flush() {
        }

        @Override
        public <T> T pipelined(Supplier<T> step) {
            return step.get();
        }
    };

    /**
     * Completes once every append made so far is stored as the store promises an acknowledged append
     * (the file store: written to the operating system, and forced under {@code fsync always});
     * exceptionally when the store failed to. Completes on the store's thread.
     */
    CompletableFuture<Void> stored();

    /**
     * Returns once every append made so far is written and, unless the store never forces, forced
     * to the disk.
     *
     * @throws RuntimeException the store's failure to write or force any of them
     */
    void flush();

    /**
     * Runs {@code step} with this thread's appends not waiting for the store even where its policy
     * has a step wait (the file store under {@code always}), so that the appends of steps a host
     * pipelines share one force; {@link #stored()} says when they are stored.
     */
    <T> T pipelined(Supplier<T> step);
}
