package io.kvledger.infrastructure.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.InvalidCommand;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.log.LogEntry;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A step that fails midway on a file store leaves the store and the state as before it: the ledger loads the
 * engine again from the store's snapshot and the lines after it, and each load gets a state of its own from the
 * snapshot (the aggregate folds what it is given in place, issue 32), so a second failure loads it as well.
 */
class FailedStepStoreTest {

    private static final EngineConfig CONFIG = EngineConfig.DEFAULTS.withGpuBlockSize(4).withCpuCapacityChunks(24);

    @TempDir
    Path dir;

    /** An id the line limit cannot measure: the step throws at the command echoing it, after folding those before it. */
    record Unreadable(String id) {
        @Override
        public String id() {
            throw new IllegalStateException("unreadable");
        }
    }

    @Test
    void aStepWhoseThirdCommandThrowsLeavesTheStateAsBeforeItTwiceAndTheNextStepsWork() throws Exception {
        Path file = dir.resolve("store.jsonl");
        StoreSnapshotTest.Workload workload = new StoreSnapshotTest.Workload(0);
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS, 50);
                KvLedger ledger = FileStores.builder(store).config(CONFIG).build()) {
            for (int i = 0; i < 12; i++) {
                workload.observe(ledger.step(workload.next()));
            }
            assertTrue(store.snapshotSeq() > 0, "a snapshot to load from");
            for (int failure = 0; failure < 2; failure++) {
                byte[] before = StateCodec.encode(ledger.state());
                long lastSeq = store.lastSeq();
                String id = "x" + failure;
                List<EngineCommand> failing = List.of(new RegisterRequest(id, List.of(1, 2, 3, 4, 5, 6, 7, 8)),
                        new MatchPrefix(id, 0), new InvalidCommand("AppendTokens", id, "tokens is not a list",
                                new Unreadable(id), null));

                IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> ledger.step(failing));

                assertTrue(thrown.getMessage().contains("Unreadable"), thrown.toString());
                assertArrayEquals(before, StateCodec.encode(ledger.state()), "failure " + failure + " changed nothing");
                assertEquals(lastSeq, store.lastSeq(), "nothing of the failed step is stored");
                workload.observe(ledger.step(workload.next()));
            }
            for (int i = 0; i < 4; i++) {
                workload.observe(ledger.step(workload.next()));
            }
            assertEquals(fold(file), ledger.state(), "the live state is the fold of the store's events");
        }
    }

    private static EngineState fold(Path file) throws Exception {
        EngineState state = null;
        for (LogEntry entry : JsonlEventStorageEngineTest.readLog(file)) {
            state = EngineFold.evolve(state, entry.event());
        }
        return state;
    }
}
