package io.kvledger.infrastructure.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.log.CompressedLogs;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store directory: segments roll at a size, each begins with its base and is a log of its own
 * stretch of seqs; closed segments are compressed; retention drops the oldest and says so; opening
 * resumes from the newest segment, tidying what a crash left; and all of it holds the same events as a
 * plain store fed the same steps.
 */
class SegmentedStoreTest {

    private static final EngineConfig CONFIG = EngineConfig.DEFAULTS.withGpuBlockSize(4).withCpuCapacityChunks(24);
    private static final SegmentPolicy SMALL = SegmentPolicy.DEFAULTS.withSegmentBytes(8_192).withSnapshotEvery(50)
            .withCompress(false);

    @TempDir
    Path dir;

    @Test
    void segmentsRollAtTheirSizeEachBeginsWithItsBaseAndTheyHoldWhatAPlainStoreHolds() throws Exception {
        Path store = dir.resolve("store");
        EngineState live = run(store, SMALL, 0, 60);
        Path plain = dir.resolve("plain.jsonl");
        EngineState plainLive = runPlain(plain, 60);
        assertEquals(plainLive, live);

        List<Path> segments = segments(store);
        assertTrue(segments.size() >= 4, "rolled: " + segments);
        List<EngineEvent> all = new ArrayList<>();
        EngineState state = null;
        for (Path segment : segments) {
            long first = firstSeq(segment);
            if (first > 1) {
                SnapshotFile.Snapshot base = SnapshotFile.readBase(segment);
                assertEquals(first - 1, base.seq(), "the base of " + segment + " is the state before its first line");
                assertEquals(state, base.state(), "the base is the fold of every segment before it");
                state = base.state(); // the segment replays on its own from its base
            }
            List<LogEntry> lines = read(segment, first);
            assertFalse(lines.isEmpty());
            assertEquals(first, lines.get(0).seq());
            assertTrue(lines.get(0).envelope() != null, "a segment begins with a step's first line");
            for (LogEntry line : lines) {
                state = EngineFold.evolve(state, line.event());
                all.add(line.event());
            }
        }
        assertEquals(live, state, "folding every segment from its base gives the live state");
        assertEquals(events(plain), all, "the segments, in order, are the plain store's lines");

        EngineState resumed = run(store, SMALL, 60, 30);
        assertEquals(runPlain(dir.resolve("plain2.jsonl"), 90), resumed, "the directory resumed from its newest segment");
    }

    @Test
    void closedSegmentsAreCompressedAndStillReadFromTheFirstEvent() throws Exception {
        Path store = dir.resolve("store");
        SegmentPolicy policy = SMALL.withCompress(true);
        EngineState live;
        try (SegmentedEventStorageEngine engine = SegmentedEventStorageEngine.open(store, FsyncPolicy.ALWAYS, policy);
                KvLedger ledger = SegmentedStores.builder(engine).config(CONFIG).build()) {
            StoreSnapshotTest.Workload workload = new StoreSnapshotTest.Workload(0);
            for (int i = 0; i < 60; i++) {
                workload.observe(ledger.step(workload.next()));
            }
            live = ledger.state();
            engine.awaitBackground();
            assertTrue(engine.closedSegments().size() >= 3);
            for (Path closed : engine.closedSegments()) {
                assertTrue(closed.toString().endsWith(".jsonl.gz"), closed.toString());
                assertFalse(Files.exists(closed.resolveSibling(closed.getFileName().toString().replace(".gz", ""))),
                        "the plain file is removed once the compressed one is in place");
            }
            List<EngineEvent> fromStart = engine.readEvents("engine", 0).asStream()
                    .flatMap(message -> ((StepEvents) message.getPayload()).events().stream()).toList();
            assertEquals(events(runPlainFile(60)), fromStart, "a load from the first event reads the compressed segments");
            assertEquals(engine.lastSeq(), engine.readEvents(null, false).count() == 0 ? -1
                    : engine.readEvents(null, false).reduce((a, b) -> b).orElseThrow().trackingToken().position().getAsLong());
        }
        try (KvLedger ledger = KvLedger.builder().store(LedgerStore.of("file:" + store + "?segmentBytes=8192&fsync=never")).build()) {
            assertTrue(ledger.resumed());
            assertEquals(live, ledger.state());
        }
    }

    @Test
    void retentionKeepsTheNewestSegmentsWithinTheBudgetAndSaysWhatItDropped() throws Exception {
        Path store = dir.resolve("store");
        SegmentPolicy policy = SMALL.withCompress(true).withRetainBytes(40_000);
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        EngineState live;
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try (SegmentedEventStorageEngine engine = SegmentedEventStorageEngine.open(store, FsyncPolicy.NEVER, policy);
                KvLedger ledger = SegmentedStores.builder(engine).config(CONFIG).build()) {
            StoreSnapshotTest.Workload workload = new StoreSnapshotTest.Workload(0);
            for (int i = 0; i < 200; i++) {
                workload.observe(ledger.step(workload.next()));
            }
            live = ledger.state();
            engine.awaitBackground();
        } finally {
            System.setErr(err);
        }
        String log = captured.toString(StandardCharsets.UTF_8);
        assertTrue(log.contains("kvledger: store " + store + ": retention dropped "), log);
        List<Path> kept = segments(store);
        assertTrue(firstSeq(kept.get(0)) > 1, "the first segments are gone: " + kept);
        long bytes = 0;
        try (Stream<Path> files = Files.list(store)) {
            for (Path file : files.toList()) {
                bytes += Files.size(file);
            }
        }
        assertTrue(bytes <= 40_000 + 8_192 * 2, "within the budget (and one segment being compressed): " + bytes);
        try (KvLedger ledger = KvLedger.builder().store(FileStores.directory(store, FsyncPolicy.NEVER, policy)).build()) {
            assertEquals(live, ledger.state(), "the newest segments and their bases are enough to resume");
        }
    }

    @Test
    void openingTidiesWhatACrashDuringARollOrACompressionLeaves() throws Exception {
        Path store = dir.resolve("store");
        EngineState live = run(store, SMALL, 0, 40);
        List<Path> segments = segments(store);
        Path oldest = segments.get(0);
        Path second = segments.get(1);
        // A compression renamed into place but the plain file not yet removed, and one not yet renamed.
        SegmentFiles.Segment compressed = SegmentFiles.compress(new SegmentFiles.Segment(1, oldest, false), false);
        Files.copy(compressed.file(), oldest.resolveSibling(second.getFileName() + ".gz.tmp"));
        Files.write(oldest, gunzip(compressed.file()));
        // Beside the second, a compressed copy that is cut (a machine crash under fsync=never kept the rename only).
        byte[] secondGz = Files.readAllBytes(SegmentFiles.compress(new SegmentFiles.Segment(firstSeq(second), second, false),
                false).file());
        Path cutGz = second.resolveSibling(second.getFileName() + SegmentFiles.GZ);
        Files.write(second, gunzip(cutGz));
        Files.write(cutGz, java.util.Arrays.copyOf(secondGz, secondGz.length / 2));
        // A roll that wrote the next segment's base but never created the segment.
        Path newest = segments.get(segments.size() - 1);
        Path orphan = SnapshotFile.basePathOf(store.resolve(SegmentFiles.nameOf(firstSeq(newest) + 1_000)));
        Files.copy(SnapshotFile.basePathOf(newest), orphan);

        List<Path> listed = SegmentFiles.list(store).stream().map(SegmentFiles.Segment::file).toList();
        assertEquals(live, run(store, SMALL, 40, 0), "opened from the newest segment");
        List<Path> expected = new java.util.ArrayList<>(segments);
        expected.set(0, compressed.file());
        assertEquals(expected, listed, "readers list what opening keeps");
        assertEquals(expected, SegmentFiles.list(store).stream().map(SegmentFiles.Segment::file).toList(),
                "the compressed copy, whole and the plain one's bytes, wins; a cut one loses to the plain segment");
        assertFalse(Files.exists(oldest), "the plain copy of a whole compressed segment is removed");
        assertFalse(Files.exists(cutGz), "a cut compressed copy is removed");
        assertTrue(Files.exists(second));
        assertFalse(Files.exists(orphan));
        try (Stream<Path> files = Files.list(store)) {
            assertTrue(files.noneMatch(file -> file.toString().endsWith(".tmp")));
        }
    }

    @Test
    void aRollThatFailsLeavesTheSegmentCurrentAndTheStepsGoOn() throws Exception {
        Path store = dir.resolve("store");
        Path plain = dir.resolve("plain.jsonl");
        runPlain(plain, 30);
        List<LogEntry> lines = JsonlEventStorageEngineTest.readLog(plain);
        List<Path> blockers = new ArrayList<>();
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        EngineState live;
        try (SegmentedEventStorageEngine engine = SegmentedEventStorageEngine.open(store, FsyncPolicy.ALWAYS, SMALL);
                KvLedger ledger = SegmentedStores.builder(engine).config(CONFIG).build()) {
            // After opening (which removes temp files): at each step's start in a plain run of the same
            // steps, a directory where the next segment's base would be written first, so every roll fails.
            for (int i = 1; i <= lines.size(); i++) {
                if (i == lines.size() || lines.get(i).envelope() != null) {
                    Path blocker = store.resolve(SegmentFiles.nameOf(i + 1) + ".base.tmp");
                    Files.createDirectory(blocker);
                    blockers.add(blocker);
                }
            }
            StoreSnapshotTest.Workload workload = new StoreSnapshotTest.Workload(0);
            for (int i = 0; i < 30; i++) {
                workload.observe(ledger.step(workload.next()));
            }
            live = ledger.state();
            assertEquals(0, engine.rolls(), () -> captured.toString(StandardCharsets.UTF_8) + engine.currentSegment());
            assertEquals(lines.size(), engine.lastSeq());
        } finally {
            System.setErr(err);
        }
        assertTrue(captured.toString(StandardCharsets.UTF_8).contains("cannot roll to"), captured.toString(StandardCharsets.UTF_8));
        assertEquals(events(plain), read(store.resolve(SegmentFiles.nameOf(1)), 1).stream().map(LogEntry::event).toList());
        for (Path blocker : blockers) {
            Files.delete(blocker);
        }
        assertEquals(live, run(store, SMALL, 30, 0), "the one segment resumes");
        assertEquals(runPlain(dir.resolve("plain2.jsonl"), 40), run(store, SMALL, 30, 10), "and rolls once it can");
        assertTrue(segments(store).size() > 1);
    }

    @Test
    void aBadSegmentOptionIsRefusedWhereTheLocationIsNamed() {
        IllegalArgumentException compress = assertThrows(IllegalArgumentException.class,
                () -> LedgerStore.of("file:" + dir.resolve("d") + "?segmentBytes=100&compress=lz4"));
        assertTrue(compress.getMessage().contains("gzip or none"), compress.getMessage());
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> LedgerStore.of("file:" + dir.resolve("d") + "?segmentSize=100"));
        assertTrue(unknown.getMessage().contains("segmentSize"), unknown.getMessage());
        assertFalse(Files.exists(dir.resolve("d")));
    }

    static EngineState run(Path store, SegmentPolicy policy, int from, int steps) {
        try (SegmentedEventStorageEngine engine = SegmentedEventStorageEngine.open(store, FsyncPolicy.ALWAYS, policy);
                KvLedger ledger = SegmentedStores.builder(engine).config(CONFIG).build()) {
            StoreSnapshotTest.Workload workload = new StoreSnapshotTest.Workload(from);
            for (int i = 0; i < steps; i++) {
                workload.observe(ledger.step(workload.next()));
            }
            return ledger.state();
        }
    }

    private Path runPlainFile(int steps) {
        Path plain = dir.resolve("plain-" + steps + "-" + System.nanoTime() + ".jsonl");
        runPlain(plain, steps);
        return plain;
    }

    private static EngineState runPlain(Path file, int steps) {
        try (KvLedger ledger = FileStores.builder(JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 0)).config(CONFIG).build()) {
            StoreSnapshotTest.Workload workload = new StoreSnapshotTest.Workload(0);
            for (int i = 0; i < steps; i++) {
                workload.observe(ledger.step(workload.next()));
            }
            return ledger.state();
        }
    }

    static List<Path> segments(Path store) throws Exception {
        try (Stream<Path> files = Files.list(store)) {
            return files.filter(f -> f.getFileName().toString().matches("segment-\\d{20}\\.jsonl(\\.gz)?")).sorted().toList();
        }
    }

    static long firstSeq(Path segment) {
        return Long.parseLong(segment.getFileName().toString().substring("segment-".length(), "segment-".length() + 20));
    }

    static List<LogEntry> read(Path segment, long first) throws Exception {
        List<LogEntry> entries = new ArrayList<>();
        try (InputStream in = CompressedLogs.decompressed(Files.newInputStream(segment))) {
            EventLogReader reader = EventLogReader.continuing(in, first - 1, first - 1, CONFIG);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                entries.add(entry);
            }
        }
        return entries;
    }

    private static byte[] gunzip(Path file) throws Exception {
        try (InputStream in = CompressedLogs.decompressed(Files.newInputStream(file))) {
            return in.readAllBytes();
        }
    }

    private static List<EngineEvent> events(Path file) throws Exception {
        return JsonlEventStorageEngineTest.readLog(file).stream().map(LogEntry::event).toList();
    }
}
