package io.kvledger.infrastructure.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.log.LogEntry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Snapshots of a store: taken every N events, used on open (only the lines after one are read), and
 * checked: a damaged snapshot, one of another store, or one past the end of a store cut back is
 * reported and the store opens from its events, to the same state.
 */
class StoreSnapshotTest {

    private static final EngineConfig CONFIG = EngineConfig.DEFAULTS.withGpuBlockSize(4).withCpuCapacityChunks(24);
    private static final int EVERY = 50;

    @TempDir
    Path dir;

    @Test
    void aSnapshotIsTakenEveryNEventsAndTheStoreOpensFromIt() throws Exception {
        Path file = dir.resolve("store.jsonl");
        EngineState live = run(file, 0, 40);
        assertTrue(Files.exists(SnapshotFile.pathOf(file)));

        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS, EVERY)) {
            assertTrue(store.openedFromSnapshot());
            assertNull(store.snapshotRejected());
            assertTrue(store.snapshotSeq() > store.lastSeq() - 2 * EVERY, "the latest snapshot is recent: " + store.snapshotSeq());
            try (KvLedger ledger = FileStores.builder(store).build()) {
                assertTrue(ledger.resumed());
                assertEquals(live, ledger.state(), "resumed from the snapshot and the lines after it");
                assertEquals(fold(file), ledger.state(), "equal to the fold of every event");
            }
        }
    }

    @Test
    void theIndexHoldsOnlyTheLinesAfterTheLatestSnapshotAndEarlierReadsStillWork() throws Exception {
        Path file = dir.resolve("store.jsonl");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, EVERY);
                KvLedger ledger = FileStores.builder(store).config(CONFIG).build()) {
            Workload workload = new Workload(0);
            for (int i = 0; i < 40; i++) {
                workload.observe(ledger.step(workload.next()));
            }
            ledger.flush(); // under never a step returns before it is written: the file is read below through another handle
            assertTrue(store.indexBaseSeq() > store.lastSeq() - 3 * EVERY, "index base " + store.indexBaseSeq());
            assertEquals(events(file), store.readEvents("engine").asStream()
                    .flatMap(m -> ((io.kvledger.application.engine.StepEvents) m.getPayload()).events().stream()).toList(),
                    "a load from the first event reads the file from its start");
            assertEquals(store.lastSeq(), store.readEvents(null, false).count() == 0 ? 0
                    : store.readEvents(null, false).reduce((a, b) -> b).orElseThrow().trackingToken().position().getAsLong());
        }
    }

    @Test
    void aSnapshotKeepsTheRequestsControls() throws Exception {
        Path file = dir.resolve("controls.jsonl");
        EngineState live;
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS, EVERY);
                KvLedger ledger = FileStores.builder(store).config(CONFIG).build()) {
            Workload workload = new Workload(0, true);
            for (int i = 0; i < 40; i++) {
                workload.observe(ledger.step(workload.next()));
            }
            live = ledger.state();
        }
        assertTrue(live.requests().values().stream().anyMatch(r -> r.controls() != null), "live requests with controls");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS, EVERY);
                KvLedger ledger = FileStores.builder(store).build()) {
            assertTrue(store.openedFromSnapshot());
            assertNull(store.snapshotRejected());
            assertEquals(live, ledger.state(), "the controls read back from the snapshot");
        }
    }

    @Test
    void resumingFromASnapshotGoesOnAsResumingFromTheEvents() throws Exception {
        Path withSnapshot = dir.resolve("a.jsonl");
        run(withSnapshot, 0, 30);
        EngineState fromSnapshot = run(withSnapshot, 30, 30); // reopened from its snapshot, then 30 more steps
        Path withoutSnapshot = dir.resolve("b.jsonl");
        run(withoutSnapshot, 0, 30);
        Files.delete(SnapshotFile.pathOf(withoutSnapshot));
        EngineState fromEvents = run(withoutSnapshot, 30, 30);

        assertEquals(fromEvents, fromSnapshot);
        assertEquals(events(withoutSnapshot), events(withSnapshot), "the same events, line for line");
    }

    @Test
    void aDamagedSnapshotIsReportedAndTheStoreOpensFromItsEvents() throws Exception {
        Path file = dir.resolve("store.jsonl");
        EngineState live = run(file, 0, 40);
        Path snapshot = SnapshotFile.pathOf(file);
        byte[] bytes = Files.readAllBytes(snapshot);
        bytes[bytes.length - 20] ^= 0x01; // one bit of the state
        Files.write(snapshot, bytes);

        assertOpensFromEvents(file, live, "does not match its checksum");
    }

    @Test
    void aSnapshotOfAnotherStoreIsReportedAndTheStoreOpensFromItsEvents() throws Exception {
        Path file = dir.resolve("store.jsonl");
        EngineState live = run(file, 0, 40);
        Path other = dir.resolve("other.jsonl");
        run(other, 5, 40);
        Files.copy(SnapshotFile.pathOf(other), SnapshotFile.pathOf(file), StandardCopyOption.REPLACE_EXISTING);

        assertOpensFromEvents(file, live, "is not the one it was taken after");
    }

    @Test
    void aSnapshotPastTheEndOfTheStoreIsReportedAndTheStoreOpensFromItsEvents() throws Exception {
        Path file = dir.resolve("store.jsonl");
        run(file, 0, 40);
        List<String> lines = Files.readAllLines(file);
        long snapshotSeq;
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 0)) {
            snapshotSeq = store.snapshotSeq();
        }
        // As a machine crash under fsync never can leave it: the snapshot on disk, the events it covers not.
        int keep = (int) snapshotSeq - 10;
        while (keep > 1 && !EventJsonLines.startsMessage(lines.get(keep))) {
            keep--;
        }
        Files.writeString(file, String.join("\n", lines.subList(0, keep)) + "\n");

        assertOpensFromEvents(file, fold(file), "but the store has");
    }

    @Test
    void aSnapshotFromBeforeTheTiersEvictableOrderIsReportedAndTheStoreOpensFromItsEvents() throws Exception {
        Path file = dir.resolve("store.jsonl");
        EngineState live = run(file, 0, 40);
        Path snapshot = SnapshotFile.pathOf(file);
        List<String> lines = Files.readAllLines(snapshot);
        assertTrue(lines.get(1).contains("\"evictable\":"), "the tier's order is written under its name");
        // As the version before issue 18 wrote it: the tier's order under its old name, checksums whole.
        byte[] state = lines.get(1).replace("\"evictable\":", "\"recency\":").getBytes(StandardCharsets.UTF_8);
        java.util.zip.CRC32C crc = new java.util.zip.CRC32C();
        crc.update(state);
        com.fasterxml.jackson.databind.node.ObjectNode header = (com.fasterxml.jackson.databind.node.ObjectNode)
                new com.fasterxml.jackson.databind.ObjectMapper().readTree(lines.get(0));
        header.put("stateBytes", state.length).put("stateCrc", crc.getValue());
        Files.writeString(snapshot, header + "\n" + new String(state, StandardCharsets.UTF_8) + "\n");

        assertOpensFromEvents(file, live, "cannot be read");
    }

    @Test
    void withoutSnapshotsNoneIsWrittenAndTheStoreOpensFromItsEvents() throws Exception {
        Path file = dir.resolve("store.jsonl");
        EngineState live;
        try (KvLedger ledger = FileStores.builder(JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 0)).config(CONFIG).build()) {
            Workload workload = new Workload(0);
            for (int i = 0; i < 20; i++) {
                workload.observe(ledger.step(workload.next()));
            }
            live = ledger.state();
        }
        assertFalse(Files.exists(SnapshotFile.pathOf(file)));
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER)) {
            assertFalse(store.openedFromSnapshot());
            try (KvLedger ledger = FileStores.builder(store).build()) {
                assertEquals(live, ledger.state());
            }
        }
    }

    private void assertOpensFromEvents(Path file, EngineState expected, String reason) throws Exception {
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS, EVERY)) {
            assertFalse(store.openedFromSnapshot());
            assertNotNull(store.snapshotRejected());
            assertTrue(store.snapshotRejected().contains(reason), store.snapshotRejected());
            try (KvLedger ledger = FileStores.builder(store).build()) {
                assertEquals(expected, ledger.state());
            }
        }
    }

    /** Steps {@code steps} steps of the workload starting at its step {@code from} on the store; the state after. */
    private static EngineState run(Path file, int from, int steps) {
        try (KvLedger ledger = FileStores.builder(JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS, EVERY)).config(CONFIG).build()) {
            Workload workload = new Workload(from);
            for (int i = 0; i < steps; i++) {
                workload.observe(ledger.step(workload.next()));
            }
            return ledger.state();
        }
    }

    private static List<EngineEvent> events(Path file) throws Exception {
        return JsonlEventStorageEngineTest.readLog(file).stream().map(LogEntry::event).toList();
    }

    private static EngineState fold(Path file) throws Exception {
        EngineState state = null;
        for (EngineEvent event : events(file)) {
            state = EngineFold.evolve(state, event);
        }
        return state;
    }

    /** A line of the file begins a message when it has an envelope. */
    private static final class EventJsonLines {
        static boolean startsMessage(String line) {
            return line.contains("\"envelope\"");
        }
    }

    /** Each step: a new request prefilled, the previous one finished, last step's stores completed. */
    static final class Workload {
        private int step;
        private int nextBlock;
        private final List<Long> jobs = new ArrayList<>();

        /** Whether each request carries the controls of contract 9.1 (which the snapshot must keep). */
        private final boolean controls;

        Workload(int from) {
            this(from, false);
        }

        Workload(int from, boolean controls) {
            this.step = from;
            this.nextBlock = from * 4;
            this.controls = controls;
        }

        List<EngineCommand> next() {
            List<EngineCommand> commands = new ArrayList<>();
            jobs.forEach(job -> commands.add(new CompleteTransfer(job, step % 7 != 0)));
            jobs.clear();
            String id = "r" + step;
            List<Integer> prompt = IntStream.range(0, 16).map(t -> (t + step % 3) * 5).boxed().toList();
            commands.add(controls ? new RegisterRequest(id, prompt, 8, step % 2 == 0 ? 4 : null, step % 3 == 0 ? Boolean.TRUE : null)
                    : new RegisterRequest(id, prompt));
            commands.add(new MatchPrefix(id, 0));
            commands.add(new AllocateBlocks(id, List.of(nextBlock++, nextBlock++, nextBlock++, nextBlock++), 0));
            commands.add(new ComputeTokens(id, 16));
            if (step > 0) {
                commands.add(new FinishRequest("r" + (step - 1), FinishReason.STOPPED));
            }
            step++;
            return commands;
        }

        void observe(StepResult result) {
            for (EngineEvent event : result.events()) {
                if (event instanceof StoreJobScheduled store) {
                    jobs.add(store.jobId());
                }
            }
        }
    }

}
