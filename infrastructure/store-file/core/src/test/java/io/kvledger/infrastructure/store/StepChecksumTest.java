package io.kvledger.infrastructure.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.application.KvLedger;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.MalformedLogException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Store format 3 (issue 23): every step's last line carries the CRC32C of the step's bytes, checked on
 * open and by the log tools' reader; a changed line that is still valid JSON is refused with its line
 * and seq; a torn end is still cut; stores written before carry no checksums, open and say so.
 */
class StepChecksumTest {

    private static final EngineConfig CONFIG = EngineConfig.DEFAULTS.withGpuBlockSize(4).withCpuCapacityChunks(24);

    @TempDir
    Path dir;

    @Test
    void everyStepEndsWithItsChecksumAndTheFileNamesItsFormat() throws Exception {
        Path file = dir.resolve("store.jsonl");
        write(file, 12);
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        JsonNode first = EventJson.mapper().readTree(lines.get(0));
        assertEquals(3, first.at("/envelope/storeFormat").asInt(), "a step's first line names the store's format");
        int steps = 0;
        for (String line : lines) {
            JsonNode node = EventJson.mapper().readTree(line);
            if (node.has(StepChecksums.FIELD)) {
                steps++;
                assertTrue(line.endsWith("}") && line.lastIndexOf("\"" + StepChecksums.FIELD + "\"") > line.length() - 30,
                        "the checksum is the line's last field: " + line);
            }
        }
        assertEquals(13, steps, "one checksum per step: the config's and 12 steps'");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER)) {
            assertEquals(RecoveryReport.CLEAN, store.recoveryReport());
            assertNull(store.uncheckedSteps(), "a store of format 3 has every step checked");
        }
    }

    @Test
    void aChangedLineThatIsStillValidJsonIsRefusedWithItsLineAndSeq() throws Exception {
        Path file = dir.resolve("store.jsonl");
        write(file, 12);
        List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
        int changed = -1;
        for (int i = lines.size() / 2; i < lines.size(); i++) {
            if (lines.get(i).contains("\"r7\"")) {
                changed = i;
                break;
            }
        }
        assertTrue(changed > 0);
        lines.set(changed, lines.get(changed).replace("\"r7\"", "\"R7\""));
        EventJson.mapper().readTree(lines.get(changed)); // still valid JSON
        Files.write(file, lines, StandardCharsets.UTF_8);
        byte[] before = Files.readAllBytes(file);

        StoreCorruptedException refused = assertThrows(StoreCorruptedException.class,
                () -> JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER));
        assertTrue(refused.getMessage().contains("does not match its checksum"), refused.getMessage());
        assertTrue(refused.getMessage().matches("(?s).*line \\d+: seq \\d+: the step of seq \\d+ to \\d+ \\(lines \\d+ to \\d+\\).*"),
                refused.getMessage());
        assertTrue(refused.line() >= changed + 1, "the step's last line, at or after the changed one");
        assertArrayEquals(before, Files.readAllBytes(file), "a refused store is left as it was");

        // A reader of the file through the store's own checks refuses it at the same line (the log tools'
        // reader, StoreLog, is held to it by StoreChecksumCliTest).
        EventLogReader reader = new EventLogReader(Files.newInputStream(file)).checking(new StepChecksums(true));
        MalformedLogException e = assertThrows(MalformedLogException.class, () -> {
            while (reader.next() != null) {
                // read to the bad step
            }
        });
        assertEquals(refused.line(), e.line());
    }

    @Test
    void aStepWhoseChecksumWasRemovedIsRefused() throws Exception {
        Path file = dir.resolve("store.jsonl");
        write(file, 6);
        List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
        int last = lines.size() - 1;
        lines.set(last, lines.get(last).replaceAll(", \"" + StepChecksums.FIELD + "\": \\d+}$", "}"));
        Files.write(file, lines, StandardCharsets.UTF_8);

        StoreCorruptedException refused = assertThrows(StoreCorruptedException.class,
                () -> JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER));
        assertTrue(refused.getMessage().contains("has no checksum"), refused.getMessage());
        assertEquals(lines.size(), refused.line());
    }

    @Test
    void aTornEndIsStillCutAndTheStoreGoesOn() throws Exception {
        Path file = dir.resolve("store.jsonl");
        write(file, 6);
        long whole = Files.size(file);
        Files.writeString(file, "{\"seq\": 999, \"type\": \"TokensComp", java.nio.file.StandardOpenOption.APPEND);
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER)) {
            assertTrue(store.recoveryReport().recovered());
        }
        assertEquals(whole, Files.size(file));
    }

    @Test
    void aStoreWrittenBeforeChecksumsOpensSaysSoAndItsNewStepsAreChecked() throws Exception {
        // Written by the version before issue 23 (store format 2, no checksums; snapshot format 1).
        Path file = dir.resolve("old.jsonl");
        Files.copy(StepChecksumTest.class.getResourceAsStream("/stores/snapshot-format-1.jsonl"), file,
                StandardCopyOption.REPLACE_EXISTING);
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 0)) {
            assertEquals(RecoveryReport.CLEAN, store.recoveryReport());
            assertNotNull(store.uncheckedSteps());
            assertTrue(store.uncheckedSteps().contains("carry no checksums"), store.uncheckedSteps());
            try (KvLedger ledger = FileStores.builder(store).build()) {
                StoreSnapshotTest.Workload workload = new StoreSnapshotTest.Workload(100);
                workload.observe(ledger.step(workload.next()));
            }
        }
        List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
        assertTrue(lines.get(lines.size() - 1).contains(StepChecksums.FIELD), "a step appended now carries its checksum");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 0)) {
            assertEquals(RecoveryReport.CLEAN, store.recoveryReport());
        }
        // From the first checked step on, a step cannot lose its checksum unnoticed.
        int last = lines.size() - 1;
        lines.set(last, lines.get(last).replaceAll(", \"" + StepChecksums.FIELD + "\": \\d+}$", "}"));
        Files.write(file, lines, StandardCharsets.UTF_8);
        StoreCorruptedException refused = assertThrows(StoreCorruptedException.class,
                () -> JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 0));
        assertTrue(refused.getMessage().contains("has no checksum"), refused.getMessage());
    }

    private static void write(Path file, int steps) {
        try (KvLedger ledger = FileStores.builder(JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 0)).config(CONFIG).build()) {
            StoreSnapshotTest.Workload workload = new StoreSnapshotTest.Workload(0);
            for (int i = 0; i < steps; i++) {
                workload.observe(ledger.step(workload.next()));
            }
        }
    }
}
