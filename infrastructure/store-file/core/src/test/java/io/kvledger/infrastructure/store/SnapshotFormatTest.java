package io.kvledger.infrastructure.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.application.KvLedger;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.log.LogEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Versioned snapshots (issue 22's snapshot part): a snapshot names its format and its state's codec
 * version; one written by the version before (format 1, a committed resource) is still read, so the
 * store opens from it, not by folding every event again; one of a newer codec version is refused with
 * its reason and the store opens from its events.
 */
class SnapshotFormatTest {

    /** Written by the version before issue 23: a store of 44 lines and its snapshot after seq 32. */
    private static final String STORE = "/stores/snapshot-format-1.jsonl";

    @TempDir
    Path dir;

    @Test
    void aSnapshotOfTheFormerFormatIsReadAndTheStoreOpensFromIt() throws Exception {
        Path file = copy();
        JsonNode header = EventJson.mapper().readTree(Files.readAllLines(SnapshotFile.pathOf(file)).get(0));
        assertEquals(1, header.path("snapshot").asInt(), "the resource is of format 1");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 30)) {
            assertNull(store.snapshotRejected());
            assertTrue(store.openedFromSnapshot(), "opened from the old snapshot");
            assertEquals(32, store.snapshotSeq());
            assertEquals(32, store.indexBaseSeq(), "only the lines after the snapshot were read");
            try (KvLedger ledger = FileStores.builder(store).build()) {
                assertEquals(fold(file), ledger.state(), "the snapshot and the lines after it give the fold of every event");
            }
        }
    }

    @Test
    void aSnapshotWrittenNowNamesItsFormatAndCodecVersion() throws Exception {
        Path file = copy();
        Files.delete(SnapshotFile.pathOf(file));
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 5);
                KvLedger ledger = FileStores.builder(store).build()) {
            StoreSnapshotTest.Workload workload = new StoreSnapshotTest.Workload(50);
            for (int i = 0; i < 3; i++) {
                workload.observe(ledger.step(workload.next()));
            }
        }
        JsonNode header = EventJson.mapper().readTree(Files.readAllLines(SnapshotFile.pathOf(file)).get(0));
        assertEquals(SnapshotFile.FORMAT, header.path("snapshot").asInt());
        assertEquals("StateCodec", header.path("stateCodec").asText());
        assertEquals(SnapshotFile.STATE_VERSION, header.path("stateVersion").asInt());
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 5)) {
            assertTrue(store.openedFromSnapshot());
        }
    }

    @Test
    void aSnapshotOfANewerCodecVersionIsRefusedAndTheStoreOpensFromItsEvents() throws Exception {
        Path file = copy();
        Path snapshot = SnapshotFile.pathOf(file);
        List<String> lines = Files.readAllLines(snapshot);
        ObjectNode header = (ObjectNode) EventJson.mapper().readTree(lines.get(0));
        header.put("snapshot", 2).put("stateCodec", "StateCodec").put("stateVersion", SnapshotFile.STATE_VERSION + 1);
        Files.writeString(snapshot, EventJson.toLine(header) + "\n" + lines.get(1) + "\n");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 30)) {
            assertFalse(store.openedFromSnapshot());
            assertTrue(store.snapshotRejected().contains("written by a newer version"), store.snapshotRejected());
            try (KvLedger ledger = FileStores.builder(store).build()) {
                assertEquals(fold(file), ledger.state());
            }
        }
    }

    private Path copy() throws Exception {
        Path file = dir.resolve("store.jsonl");
        Files.copy(SnapshotFormatTest.class.getResourceAsStream(STORE), file, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(SnapshotFormatTest.class.getResourceAsStream(STORE + ".snapshot"), SnapshotFile.pathOf(file),
                StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    private static EngineState fold(Path file) throws Exception {
        EngineState state = null;
        for (LogEntry entry : JsonlEventStorageEngineTest.readLog(file)) {
            EngineEvent event = entry.event();
            state = EngineFold.evolve(state, event);
        }
        return state;
    }
}
