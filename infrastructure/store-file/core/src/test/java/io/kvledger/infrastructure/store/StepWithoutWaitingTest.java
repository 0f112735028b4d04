package io.kvledger.infrastructure.store;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.IOException;
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
 * A stored step through the embedding API that does not wait for the store's writer thread: the
 * ledger, the store, the file and the writer are real; a package-private gate holds the writer (or
 * fails a write) so that steps pile up behind it.
 */
class StepWithoutWaitingTest {

    private static final EngineConfig CONFIG = EngineConfig.DEFAULTS.withGpuBlockSize(4).withCpuCapacityChunks(24);

    @TempDir
    Path dir;

    /** This test's stores' gate: only the stores a test opens with it are held, never another test's. */
    private final WriterGates.Switchable gate = new WriterGates.Switchable();

    @Test
    void underNeverAStepReturnsWhileTheWriterIsHeldAndCloseWritesEveryStep() throws Exception {
        Path file = dir.resolve("never.jsonl");
        CountDownLatch release = new CountDownLatch(1);
        List<EngineEvent> decided = new ArrayList<>();
        EngineState live;
        try (KvLedger ledger = FileStores.builder(JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, gate)).config(CONFIG).build()) {
            decided.add(ledger.configured());
            ledger.flush(); // EngineConfigured written before the writer is held
            WriterGates.hold(gate, file, release);
            StoreSnapshotTest.Workload workload = new StoreSnapshotTest.Workload(0);
            for (int i = 0; i < 20; i++) {
                StepResult result = ledger.step(workload.next()); // would hang here if it waited for the writer
                workload.observe(result);
                decided.addAll(result.events());
            }
            assertEquals(1, JsonlEventStorageEngineTest.readLog(file).size(), "only EngineConfigured is written yet");
            CompletableFuture<StepResult> last = ledger.stepAsync(workload.next());
            assertFalse(last.isDone(), "stored only once written");
            live = ledger.state();
            release.countDown();
            decided.addAll(last.get(10, TimeUnit.SECONDS).events());
        } // close writes what is queued
        List<EngineEvent> stored = JsonlEventStorageEngineTest.readLog(file).stream().map(LogEntry::event).toList();
        assertEquals(decided, stored, "every step returned is in the file after close, in order");
        assertEquals(live, fold(stored));
    }

    @Test
    void aWriteThatFailsAfterItsStepReturnedFailsTheNextStepAndTheFileResumesAtAWholeStep() throws Exception {
        Path file = dir.resolve("failing.jsonl");
        AtomicInteger writes = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        List<EngineState> states = new ArrayList<>();
        JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, gate);
        try (KvLedger ledger = FileStores.builder(store).config(CONFIG).build()) {
            states.add(copyOf(ledger.state())); // a copy: the ledger's state is a view valid until its next step
            ledger.flush();
            gate.current = target -> {
                int write = target.equals(file) ? writes.incrementAndGet() : 0;
                if (write == 1) {
                    WriterGates.awaitQuietly(release);
                }
                if (write == 4) {
                    throw new IOException("No space left on device");
                }
            };
            StoreSnapshotTest.Workload workload = new StoreSnapshotTest.Workload(0);
            for (int i = 0; i < 6; i++) {
                StepResult result = ledger.step(workload.next()); // steps 4 to 6 return, though 4 will not be written
                workload.observe(result);
                states.add(copyOf(result.state()));
            }
            CompletableFuture<Void> stored = store.stored();
            release.countDown();
            await().atMost(Duration.ofSeconds(10)).until(stored::isDone);
            assertTrue(stored.isCompletedExceptionally(), "step 6 is not stored");
            EventStoreException next = assertThrows(EventStoreException.class, () -> ledger.step(workload.next()));
            assertTrue(next.getMessage().contains("had returned to the host but are not stored"), next.getMessage());
            assertTrue(next.getMessage().contains("reopen it to resume from there"), next.getMessage());
            assertThrows(EventStoreException.class, () -> ledger.step(workload.next()), "and every step after it");
        } // reported by a step: close does not throw it again
        gate.current = null;
        try (KvLedger reopened = FileStores.ledger(file, FsyncPolicy.NEVER)) {
            assertEquals(states.get(3), reopened.state(), "the file ends after step 3, whole");
        }
    }

    @Test
    void aWriteFailureThatNoStepReportedMakesCloseThrow() {
        Path file = dir.resolve("closing.jsonl");
        AtomicInteger writes = new AtomicInteger();
        KvLedger ledger = FileStores.builder(JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, gate)).config(CONFIG).build();
        ledger.flush();
        gate.current = target -> {
            if (target.equals(file) && writes.incrementAndGet() == 2) {
                throw new IOException("Input/output error");
            }
        };
        StoreSnapshotTest.Workload workload = new StoreSnapshotTest.Workload(0);
        ledger.step(workload.next());
        ledger.step(workload.next());
        EventStoreException e = assertThrows(EventStoreException.class, ledger::close);
        assertTrue(e.getMessage().contains("Input/output error"), e.getMessage());
    }

    @Test
    void pipelinedStepsUnderAlwaysShareForcesAndEachCompletesOnlyOnceForced() throws Exception {
        Path file = dir.resolve("always.jsonl");
        int steps = 30;
        JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS, gate);
        try (KvLedger ledger = FileStores.builder(store).config(CONFIG).build()) {
            long forcesBefore = store.forces();
            CountDownLatch release = new CountDownLatch(1);
            WriterGates.hold(gate, file, release);
            StoreSnapshotTest.Workload workload = new StoreSnapshotTest.Workload(0);
            List<CompletableFuture<Long>> forcedWhenDone = new ArrayList<>();
            List<Long> lastSeqs = new ArrayList<>();
            for (int i = 0; i < steps; i++) {
                CompletableFuture<StepResult> step = ledger.stepAsync(workload.next()); // returns: the writer is held
                lastSeqs.add(store.lastSeq());
                forcedWhenDone.add(step.thenApply(result -> store.forcedSeq()));
            }
            assertFalse(forcedWhenDone.get(0).isDone());
            release.countDown();
            for (int i = 0; i < steps; i++) {
                long forced = forcedWhenDone.get(i).get(10, TimeUnit.SECONDS);
                assertTrue(forced >= lastSeqs.get(i), "step " + i + " completed with seq " + forced + " forced, below "
                        + lastSeqs.get(i));
            }
            long forces = store.forces() - forcesBefore;
            assertTrue(forces < steps / 3, "one force per batch of queued steps, not per step: " + forces + " for " + steps);
            // A step that waits still returns only once its own events are forced.
            ledger.step(workload.next());
            assertEquals(store.lastSeq(), store.forcedSeq());
        }
    }

    @Test
    void aStepFromAFuturesCallbackOnTheWriterThreadIsRefusedInsteadOfDeadlocking() throws Exception {
        Path file = dir.resolve("callback.jsonl");
        try (KvLedger ledger = FileStores.builder(JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS, gate)).config(CONFIG).build()) {
            CountDownLatch release = new CountDownLatch(1);
            WriterGates.hold(gate, file, release);
            StoreSnapshotTest.Workload workload = new StoreSnapshotTest.Workload(0);
            List<io.kvledger.domain.command.EngineCommand> next = workload.next();
            CompletableFuture<StepResult> chained = ledger.stepAsync(workload.next()).thenApply(done -> ledger.step(next));
            release.countDown();
            java.util.concurrent.ExecutionException e = assertThrows(java.util.concurrent.ExecutionException.class,
                    () -> chained.get(10, TimeUnit.SECONDS));
            boolean refused = false;
            for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
                refused |= t instanceof IllegalStateException && String.valueOf(t.getMessage()).contains("writer thread");
            }
            assertTrue(refused, String.valueOf(e.getCause()));
            ledger.step(next); // from the host's thread it is taken
        }
    }

    @Test
    void aFlushWaitsUntilEveryReturnedStepIsWrittenAndForcedUnderInterval() throws Exception {
        Path file = dir.resolve("interval.jsonl");
        JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.interval(Duration.ofHours(1)), gate);
        try (KvLedger ledger = FileStores.builder(store).config(CONFIG).build()) {
            StoreSnapshotTest.Workload workload = new StoreSnapshotTest.Workload(0);
            for (int i = 0; i < 10; i++) {
                workload.observe(ledger.step(workload.next()));
            }
            ledger.flush();
            assertEquals(store.lastSeq(), store.writtenSeq());
            assertEquals(store.lastSeq(), store.forcedSeq());
            assertEquals(store.lastSeq(), JsonlEventStorageEngineTest.readLog(file).size());
        }
    }

    private static EngineState fold(List<EngineEvent> events) {
        EngineState state = null;
        for (EngineEvent event : events) {
            state = EngineFold.evolve(state, event);
        }
        return state;
    }

    /** A state of the test's own, decoded from the snapshot encoding of {@code state}. */
    private static EngineState copyOf(EngineState state) throws IOException {
        return StateCodec.decode(StateCodec.encode(state));
    }
}
