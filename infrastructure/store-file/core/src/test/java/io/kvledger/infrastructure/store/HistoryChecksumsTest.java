package io.kvledger.infrastructure.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.domain.config.EngineConfig;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 31: a store that opens from its snapshot checks the step checksums of the lines before it
 * ({@link HistoryChecksums}), so a changed history is refused on open, naming the step's line, and the
 * file is left as it was; an unchanged one opens from its snapshot as before.
 */
class HistoryChecksumsTest {

    private static final EngineConfig CONFIG = EngineConfig.DEFAULTS.withGpuBlockSize(4).withCpuCapacityChunks(24);

    @TempDir
    Path dir;

    @Test
    void anUnchangedStoreOpensFromItsSnapshot() throws Exception {
        Path file = write("store.jsonl");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 20)) {
            assertTrue(store.openedFromSnapshot());
            assertNull(store.snapshotRejected());
        }
    }

    @Test
    void aLineChangedBeforeTheSnapshotIsRefusedOnOpen() throws Exception {
        // A value changed into another valid one, in a step's first line, a middle line and a one-line step.
        refused("a changed value", lines -> {
            int at = firstLineContaining(lines, "\"r3\"");
            lines.set(at, lines.get(at).replaceFirst("\"r3\"", "\"R3\""));
            return firstLineContaining(lines, "\"stepCrc32c\"", at) + 1; // named by its step's last line
        }, "does not match its checksum");
        refused("a changed checksum", lines -> {
            int at = firstLineContaining(lines, "\"stepCrc32c\"", 3);
            String line = lines.get(at);
            char last = line.charAt(line.length() - 2);
            lines.set(at, line.substring(0, line.length() - 2) + (last == '1' ? '2' : '1') + "}");
            return at + 1;
        }, "does not match its checksum");
        refused("a step's format field changed", lines -> {
            int at = firstLineContaining(lines, "\"storeFormat\": 3", 3);
            lines.set(at, lines.get(at).replace("\"storeFormat\": 3", "\"storeFormat\": 4"));
            return at + 1;
        }, "belongs to no step of store format 3");
        // (Each change keeps the line's length: a snapshot whose offset no longer ends its line is rejected,
        // and the store then opens from its events, checking every line as it reads it.)
        refused("a step's checksum field renamed", lines -> {
            int at = firstLineContaining(lines, "\"stepCrc32c\"", 3);
            lines.set(at, lines.get(at).replace("\"stepCrc32c\"", "\"stepCrc32C\""));
            return at + 2; // the next step begins before this one ended
        }, "a step begins here before the step of line");
    }

    /** Changes the lines; returns the line (from 1) the refusal must name. */
    private interface Change {
        int apply(List<String> lines);
    }

    private void refused(String what, Change change, String reason) throws Exception {
        Path file = write(what.replace(' ', '-') + ".jsonl");
        List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
        int named = change.apply(lines);
        Files.write(file, lines, StandardCharsets.UTF_8);
        byte[] before = Files.readAllBytes(file);
        StoreCorruptedException refused = assertThrows(StoreCorruptedException.class,
                () -> JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 20), what);
        assertTrue(refused.getMessage().contains(reason), what + ": " + refused.getMessage());
        assertEquals(named, refused.line(), what + ": " + refused.getMessage());
        assertTrue(refused.getMessage().contains("before the store's snapshot"), refused.getMessage());
        assertArrayEquals(before, Files.readAllBytes(file), what + ": the store is left as it was");
    }

    private static int firstLineContaining(List<String> lines, String part) {
        return firstLineContaining(lines, part, 0);
    }

    private static int firstLineContaining(List<String> lines, String part, int from) {
        for (int i = from; i < lines.size(); i++) {
            if (lines.get(i).contains(part)) {
                return i;
            }
        }
        throw new AssertionError("no line with " + part);
    }

    /** A store of 12 steps that snapshots every 20 events: its early lines lie before the snapshot. */
    private Path write(String name) throws Exception {
        Path file = dir.resolve(name);
        try (KvLedger ledger = FileStores.builder(JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 20)).config(CONFIG).build()) {
            StoreSnapshotTest.Workload workload = new StoreSnapshotTest.Workload(0);
            for (int i = 0; i < 12; i++) {
                workload.observe(ledger.step(workload.next()));
            }
        }
        assertTrue(Files.exists(SnapshotFile.pathOf(file)), "a snapshot was taken");
        long lines = Files.readAllLines(file).size();
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 20)) {
            assertTrue(store.openedFromSnapshot());
            assertTrue(store.snapshotSeq() > lines / 2, "most lines lie before the snapshot: " + store.snapshotSeq() + " of " + lines);
        }
        assertEquals(lines, Files.readAllLines(file).size());
        return file;
    }
}
