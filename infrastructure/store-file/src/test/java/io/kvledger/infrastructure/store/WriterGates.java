package io.kvledger.infrastructure.store;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Holds a real store's writer thread before its writes to one file, through the package-private gate. */
final class WriterGates {

    private WriterGates() {
    }

    /** Holds the writer of {@code file} until {@code release} is counted down. */
    static void hold(Path file, CountDownLatch release) {
        JsonlEventStorageEngine.writeGate = target -> {
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
