package io.kvledger.infrastructure.store;

import static io.kvledger.testkit.store.EventStorageEngineContract.event;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Appends that do not wait for the writer thread (docs/embedded-store.md, "What a returned step
 * guarantees"), on a real file with the real writer: a package-private gate holds the writer (or
 * fails a write) so that appends pile up behind it.
 */
class WriteBehindTest {

    @TempDir
    Path dir;

    /** This test's stores' gate: only the stores a test opens with it are held, never another test's. */
    private final WriterGates.Switchable gate = new WriterGates.Switchable();

    @Test
    void underNeverAnAppendReturnsWhileTheWriterIsHeldAndAFlushWaitsForTheWrites() throws Exception {
        Path file = dir.resolve("never.jsonl");
        CountDownLatch release = hold(file);
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, gate)) {
            for (int sequence = 0; sequence < 5; sequence++) {
                store.appendEvents(event("engine", sequence)); // would hang here if it waited for the writer
            }
            assertEquals(5, store.lastSeq());
            assertEquals(0, store.writtenSeq());
            assertEquals(0, Files.size(file), "nothing is written while the writer is held");
            CompletableFuture<Void> stored = store.stored();
            assertFalse(stored.isDone());
            release.countDown();
            store.flush();
            assertTrue(stored.isDone());
            assertEquals(5, store.writtenSeq());
            assertEquals(5, readableSeq(file));
            assertEquals(List.of(0L, 1L, 2L, 3L, 4L), sequenceNumbers(store));
        }
    }

    @Test
    void aReadWaitsForTheAppendsQueuedBeforeIt() {
        Path file = dir.resolve("read.jsonl");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, gate)) {
            for (int sequence = 0; sequence < 50; sequence++) {
                store.appendEvents(event("engine", sequence));
                assertEquals(1, store.readEvents("engine", sequence).asStream().count(), "append " + sequence + " is read back");
            }
        }
    }

    @Test
    void pipelinedAppendsUnderAlwaysShareAForceAndEachIsAcknowledgedOnlyOnceForced() throws Exception {
        Path file = dir.resolve("always.jsonl");
        CountDownLatch release = hold(file);
        int appends = 40;
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS, gate)) {
            List<CompletableFuture<Long>> forcedAtAcknowledgement = new ArrayList<>();
            store.pipelined(() -> {
                for (int sequence = 0; sequence < appends; sequence++) {
                    store.appendEvents(event("engine", sequence));
                    forcedAtAcknowledgement.add(store.stored().thenApply(done -> store.forcedSeq()));
                }
                return null;
            });
            assertEquals(0, store.forces(), "nothing forced while the writer is held");
            assertFalse(forcedAtAcknowledgement.get(0).isDone(), "not acknowledged before it is forced");
            release.countDown();
            for (int i = 0; i < appends; i++) {
                long forced = forcedAtAcknowledgement.get(i).get(10, TimeUnit.SECONDS);
                assertTrue(forced >= i + 1, "append " + (i + 1) + " acknowledged with only seq " + forced + " forced");
            }
            assertTrue(store.forces() < appends / 4, "one force per batch, not per append: " + store.forces() + " forces");
            // A step that waits (not pipelined) still returns only once its own append is forced.
            store.appendEvents(event("engine", appends));
            assertEquals(appends + 1, store.forcedSeq());
        }
        assertEquals(appends + 1, readableSeq(file));
    }

    @Test
    void anAppenderThatOutrunsTheWriterWaitsOnceTheQueueIsFull() throws Exception {
        Path file = dir.resolve("bounded.jsonl");
        CountDownLatch release = hold(file);
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, gate)) {
            int appends = JsonlEventStorageEngine.MAX_QUEUED_APPENDS + 1;
            AtomicInteger returned = new AtomicInteger();
            Thread appender = new Thread(() -> {
                for (int sequence = 0; sequence < appends; sequence++) {
                    store.appendEvents(event("engine", sequence));
                    returned.incrementAndGet();
                }
            });
            appender.start();
            await().atMost(Duration.ofSeconds(10)).until(() -> returned.get() == JsonlEventStorageEngine.MAX_QUEUED_APPENDS
                    && appender.getState() == Thread.State.WAITING);
            assertEquals(JsonlEventStorageEngine.MAX_QUEUED_APPENDS, returned.get(), "the append past the bound waits");
            release.countDown();
            appender.join(10_000);
            assertEquals(appends, returned.get());
            store.flush();
            assertEquals(appends, readableSeq(file));
        }
    }

    @Test
    void aWriteThatFailsAfterItsAppendReturnedFailsTheNextAppendAndLeavesTheFileAPrefix() throws Exception {
        Path file = dir.resolve("failing.jsonl");
        AtomicInteger writes = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        gate.current = target -> {
            int write = target.equals(file) ? writes.incrementAndGet() : 0;
            if (write == 1) {
                try {
                    if (!release.await(10, TimeUnit.SECONDS)) {
                        throw new IOException("the test held the writer for 10 s without releasing it");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (write == 3) {
                throw new IOException("No space left on device");
            }
        };
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, gate)) {
            for (int sequence = 0; sequence < 4; sequence++) {
                store.appendEvents(event("engine", sequence)); // all four return before the third fails
            }
            release.countDown();
            CompletableFuture<Void> stored = store.stored();
            await().atMost(Duration.ofSeconds(10)).until(stored::isDone);
            assertTrue(stored.isCompletedExceptionally());
            EventStoreException next = assertThrows(EventStoreException.class, () -> store.appendEvents(event("engine", 4)));
            assertTrue(next.getMessage().contains("cannot append to " + file + " at seq 3: No space left on device"), next.getMessage());
            assertTrue(next.getMessage().contains("the steps from seq 3 to 4 had returned to the host but are not stored"),
                    next.getMessage());
            assertTrue(next.getMessage().contains("ends at seq 2"), next.getMessage());
            assertThrows(EventStoreException.class, store::flush, "a flush reports it too");
        } // reported: closing does not throw it again
        gate.current = null;
        try (JsonlEventStorageEngine reopened = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, gate)) {
            assertEquals(RecoveryReport.CLEAN, reopened.recoveryReport(), "the failed write was cut: no torn end");
            assertEquals(2, reopened.lastSeq());
            reopened.appendEvents(event("engine", 2));
        }
        assertEquals(3, readableSeq(file));
    }

    @Test
    void aWriteFailureNoStepReportedMakesCloseThrow() {
        Path file = dir.resolve("closing.jsonl");
        AtomicInteger writes = new AtomicInteger();
        gate.current = target -> {
            if (target.equals(file) && writes.incrementAndGet() == 2) {
                throw new IOException("Input/output error");
            }
        };
        JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.interval(Duration.ofMillis(5)), gate);
        store.appendEvents(event("engine", 0));
        store.appendEvents(event("engine", 1));
        EventStoreException e = assertThrows(EventStoreException.class, store::close);
        assertTrue(e.getMessage().contains("at seq 2: Input/output error"), e.getMessage());
        assertTrue(store.isClosed());
    }

    @Test
    void underAlwaysAFailedWriteOfAWaitingAppendIsThrownToItAndTheStoreGoesOn() throws Exception {
        Path file = dir.resolve("always-failing.jsonl");
        AtomicInteger writes = new AtomicInteger();
        gate.current = target -> {
            if (target.equals(file) && writes.incrementAndGet() == 2) {
                throw new IOException("No space left on device");
            }
        };
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS, gate)) {
            store.appendEvents(event("engine", 0));
            EventStoreException e = assertThrows(EventStoreException.class, () -> store.appendEvents(event("engine", 1)));
            assertEquals("cannot append to " + file + ": No space left on device", e.getMessage());
            assertEquals(1, store.lastSeq(), "the failed append is not counted");
            store.appendEvents(event("engine", 1));
            assertEquals(2, store.forcedSeq());
        }
        assertEquals(2, readableSeq(file));
    }

    /** Holds the writer thread of {@code file}'s store before its first write until the latch is released. */
    private CountDownLatch hold(Path file) {
        CountDownLatch release = new CountDownLatch(1);
        WriterGates.hold(gate, file, release);
        return release;
    }

    private static List<Long> sequenceNumbers(JsonlEventStorageEngine store) {
        return store.readEvents("engine", 0).asStream().map(m -> m.getSequenceNumber()).toList();
    }

    /** The seq of the last line a fresh handle on the file reads. */
    private static long readableSeq(Path file) throws Exception {
        long seq = 0;
        try (InputStream in = Files.newInputStream(file)) {
            EventLogReader reader = new EventLogReader(in);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                seq = entry.seq();
            }
        }
        return seq;
    }
}
