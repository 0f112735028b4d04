package io.kvledger.infrastructure.store;

import static io.kvledger.testkit.store.EventStorageEngineContract.event;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a returned append promises under each fsync policy (docs/embedded-store.md): under
 * {@code always} written and forced before returning, so another handle reads it at once; under
 * {@code interval:MS} and {@code never} queued, written by the writer thread after it returns (a
 * flush waits for that), forced within the period with no further append under {@code interval},
 * never forced under {@code never}. And the append is done on the store's writer thread.
 */
class FsyncGuaranteeTest {

    @TempDir
    Path dir;

    @Test
    void underAlwaysEveryReturnedAppendIsForcedAndReadableFromAnotherHandle() throws Exception {
        Path file = dir.resolve("always.jsonl");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS)) {
            for (int sequence = 0; sequence < 20; sequence++) {
                store.appendEvents(event("engine", sequence));
                assertEquals(store.lastSeq(), store.forcedSeq(), "forced before the append returned");
                assertEquals(store.lastSeq(), readableSeq(file), "another handle reads what was acknowledged");
            }
        }
    }

    @Test
    void underIntervalAnAppendIsForcedWithinThePeriodWithoutAnotherAppend() throws Exception {
        Path file = dir.resolve("interval.jsonl");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.interval(Duration.ofMillis(50)))) {
            store.appendEvents(event("engine", 0));
            store.appendEvents(event("engine", 1)); // within the period of the first: written, not forced yet
            assertEquals(2, store.lastSeq());
            await().atMost(Duration.ofSeconds(10)).until(() -> store.writtenSeq() == 2);
            assertEquals(2, readableSeq(file));
            await().atMost(Duration.ofSeconds(10)).until(() -> store.forcedSeq() == 2);
        }
    }

    @Test
    void underNeverNothingIsForcedButEverythingIsWritten() throws Exception {
        Path file = dir.resolve("never.jsonl");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER)) {
            for (int sequence = 0; sequence < 5; sequence++) {
                store.appendEvents(event("engine", sequence));
                store.flush();
                assertEquals(store.lastSeq(), store.writtenSeq());
                assertEquals(store.lastSeq(), readableSeq(file));
            }
            assertEquals(0, store.forcedSeq(), "a flush under never writes, it does not force");
            assertEquals(0, store.forces());
        }
    }

    @Test
    void appendsAreEncodedAndWrittenOnTheWriterThread() {
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(dir.resolve("w.jsonl"), FsyncPolicy.NEVER)) {
            store.appendEvents(event("engine", 0));
            Thread writer = store.writerThread();
            assertNotEquals(Thread.currentThread(), writer);
            assertTrue(writer.getName().startsWith("kvledger-store-writer"), writer.getName());
            assertTrue(writer.isDaemon());
        }
    }

    @Test
    void anInterruptedAppenderStillHasItsAppendWrittenAndKeepsItsInterrupt() throws Exception {
        Path file = dir.resolve("interrupted.jsonl");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS)) {
            store.appendEvents(event("engine", 0));
            Thread.currentThread().interrupt();
            store.appendEvents(event("engine", 1));
            assertTrue(Thread.interrupted(), "the interrupt is kept for the caller");
            assertEquals(2, store.lastSeq());
            assertEquals(2, store.forcedSeq());
        }
        assertEquals(2, readableSeq(file));
    }

    @Test
    void underIntervalAFlushWritesAndForcesWithoutWaitingForThePeriod() throws Exception {
        Path file = dir.resolve("interval-flush.jsonl");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.interval(Duration.ofHours(1)))) {
            store.appendEvents(event("engine", 0));
            store.flush();
            assertEquals(1, store.forcedSeq());
            assertEquals(1, readableSeq(file));
        }
    }

    /** The seq of the last line a fresh handle on the file reads. */
    private static long readableSeq(Path file) throws Exception {
        List<LogEntry> entries = new ArrayList<>();
        try (InputStream in = Files.newInputStream(file)) {
            EventLogReader reader = new EventLogReader(in);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                entries.add(entry);
            }
        }
        return entries.isEmpty() ? 0 : entries.get(entries.size() - 1).seq();
    }
}
