package io.kvledger.infrastructure.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Holds a real store's writer thread before its writes to one file, through the gate the store was opened with. */
final class WriterGates {

    private WriterGates() {
    }

    /** A store's gate whose behaviour a test sets and changes while the store runs: none at first. */
    static final class Switchable implements JsonlEventStorageEngine.WriteGate {
        volatile JsonlEventStorageEngine.WriteGate current;

        @Override
        public void beforeWrite(Path file) throws IOException {
            JsonlEventStorageEngine.WriteGate now = current;
            if (now != null) {
                now.beforeWrite(file);
            }
        }
    }

    /** Holds the writer of {@code file} until {@code release} is counted down. */
    static void hold(Switchable gate, Path file, CountDownLatch release) {
        gate.current = target -> {
            if (target.equals(file)) {
                awaitQuietly(release);
            }
        };
    }

    /** Holds the writer until the latch is released; a test that never releases it fails its writes instead of hanging. */
    static void awaitQuietly(CountDownLatch latch) throws IOException {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IOException("the test held the writer for 10 s without releasing it");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
