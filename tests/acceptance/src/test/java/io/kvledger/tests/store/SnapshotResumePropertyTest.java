package io.kvledger.tests.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.state.EngineState;
import io.kvledger.simulation.SimulationOptions;
import io.kvledger.simulation.Simulator;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Resume from a snapshot equals resume from the events, over seeded simulations: the simulator
 * drives a ledger on a file store that snapshots every few dozen events and is closed and reopened
 * every few steps, so it resumes from a snapshot again and again, mid-flight (jobs in flight, fenced
 * blocks, pinned chunks). The simulator checks every step against its own fold of the log, so a
 * resumed state that differs from the events' fails at once. At the end, the store opened without
 * its snapshot resumes to the same state, and the one opened with it too.
 */
class SnapshotResumePropertyTest {

    private static final long SNAPSHOT_EVERY = 37;
    private static final int REOPEN_EVERY_STEPS = 23;

    @TempDir
    Path dir;

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void resumeFromASnapshotEqualsResumeFromTheEvents(long seed) throws Exception {
        Path file = dir.resolve("seed-" + seed + ".jsonl");
        SimulationOptions options = new SimulationOptions(60, seed, 0.15, 0.03, 0.05, 1 + (int) (seed % 2),
                seed % 3 == 0 ? ReleasePolicy.DELAY_FREE : ReleasePolicy.FENCE, 0.002);
        ReopeningEngine[] engine = new ReopeningEngine[1];
        new Simulator(options, () -> (s, e) -> List.of(),
                config -> engine[0] = new ReopeningEngine(file, config)).run(new Simulator.Listener() {
                    @Override
                    public void configured(EngineConfigured configured) {
                    }

                    @Override
                    public void step(List<StepEntry> entries, List<io.kvledger.domain.event.EngineEvent> events) {
                    }
                });
        EngineState last = engine[0].lastState;
        assertTrue(engine[0].resumedFromSnapshot > 2, "resumed from a snapshot " + engine[0].resumedFromSnapshot + " times");
        assertTrue(engine[0].steps > REOPEN_EVERY_STEPS * 3, "steps: " + engine[0].steps);

        assertEquals(last, resume(file, true), "resumed from the last snapshot");
        Files.delete(file.resolveSibling(file.getFileName() + ".snapshot"));
        assertEquals(last, resume(file, false), "resumed from the events alone");
    }

    private static EngineState resume(Path file, boolean fromSnapshot) {
        JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 0);
        assertEquals(fromSnapshot, store.openedFromSnapshot());
        try (KvLedger ledger = FileStores.builder(store).build()) {
            return ledger.state();
        }
    }

    /** A ledger on a file store that is closed and reopened every few steps. */
    private static final class ReopeningEngine implements KvLedger {
        private final Path file;
        private final EngineConfig config;
        private KvLedger ledger;
        private JsonlEventStorageEngine store;
        private int steps;
        int resumedFromSnapshot;
        EngineState lastState;

        ReopeningEngine(Path file, EngineConfig config) {
            this.file = file;
            this.config = config;
            open();
        }

        private void open() {
            store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, SNAPSHOT_EVERY);
            resumedFromSnapshot += store.openedFromSnapshot() ? 1 : 0;
            assertFalse(store.snapshotRejected() != null, () -> store.snapshotRejected());
            ledger = FileStores.builder(store).config(config).build();
        }

        @Override
        public EngineConfigured configured() {
            return ledger.configured();
        }

        @Override
        public String engineId() {
            return ledger.engineId();
        }

        @Override
        public boolean resumed() {
            return ledger.resumed();
        }

        @Override
        public StepResult stepEntries(List<StepEntry> entries) {
            if (++steps % REOPEN_EVERY_STEPS == 0) {
                ledger.close();
                open();
            }
            StepResult result = ledger.stepEntries(entries);
            lastState = result.state();
            return result;
        }

        @Override
        public EngineState state() {
            return ledger.state();
        }

        @Override
        public void close() {
            ledger.close();
        }
    }
}
