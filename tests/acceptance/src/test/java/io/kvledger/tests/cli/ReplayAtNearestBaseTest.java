package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import io.kvledger.infrastructure.store.SegmentPolicy;
import io.kvledger.infrastructure.store.SegmentedEventStorageEngine;
import io.kvledger.infrastructure.store.SegmentedStores;
import io.kvledger.infrastructure.store.StoreLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code replay --at SEQ} of a store directory folds from the base of its last segment that begins at or
 * before SEQ, not from the log's start: for seqs all along the log (each segment's first line and the
 * lines around it among them), in text, JSON and for one request, it prints exactly what {@code replay
 * --at SEQ} of a plain store fed the same steps prints, which folds every line from the first; and the
 * lines before that base are indeed not read.
 */
class ReplayAtNearestBaseTest {

    private static final EngineConfig CONFIG = EngineConfig.DEFAULTS.withGpuBlockSize(4).withCpuCapacityChunks(24);
    private static final int STEPS = 120;

    @TempDir
    Path dir;

    @Test
    void replayAtAnySeqFromTheNearestBaseIsTheReplayFromTheStart() throws Exception {
        Path store = dir.resolve("store");
        Path plain = dir.resolve("plain.jsonl");
        try (SegmentedEventStorageEngine segmented = SegmentedEventStorageEngine.open(store, FsyncPolicy.NEVER,
                SegmentPolicy.DEFAULTS.withSegmentBytes(16_384).withSnapshotEvery(40));
                KvLedger directory = SegmentedStores.builder(segmented).config(CONFIG).build();
                KvLedger file = FileStores.builder(JsonlEventStorageEngine.open(plain, FsyncPolicy.NEVER, 0)).config(CONFIG).build()) {
            SegmentedStoreToolsTest.Workload workload = new SegmentedStoreToolsTest.Workload();
            for (int i = 0; i < STEPS; i++) {
                List<EngineCommand> commands = workload.next();
                StepResult result = directory.step(commands);
                file.step(commands);
                workload.observe(result);
            }
            segmented.awaitBackground();
        }
        long lastSeq = SegmentedStoreToolsTest.read(plain).size();
        List<Long> firstSeqs;
        try (Stream<Path> files = Files.list(store)) {
            firstSeqs = files.map(f -> f.getFileName().toString()).filter(n -> n.matches("segment-\\d+\\.jsonl(\\.gz)?"))
                    .map(n -> Long.parseLong(n.substring("segment-".length(), n.indexOf('.')))).sorted().toList();
        }
        assertTrue(firstSeqs.size() >= 3, "rolled: " + firstSeqs);

        TreeSet<Long> ats = new TreeSet<>();
        for (long at = 1; at <= lastSeq; at += 53) {
            ats.add(at);
        }
        for (long first : firstSeqs) {
            for (long at = first - 1; at <= first + 1; at++) {
                if (at >= 1 && at <= lastSeq) {
                    ats.add(at);
                }
            }
        }
        ats.add(lastSeq);
        for (long at : ats) {
            String seq = String.valueOf(at);
            String request = "r" + (at * STEPS / lastSeq);
            for (String[] command : new String[][] {{"replay", "--at", seq}, {"replay", "--json", "--at", seq},
                    {"replay", "--at", seq, "--request", request}}) {
                CliRun want = CliRun.of(SegmentedStoreToolsTest.with(command, plain));
                CliRun got = CliRun.of(SegmentedStoreToolsTest.with(command, store));
                assertEquals(0, want.exit(), want.stderr());
                assertEquals(0, got.exit(), got.stderr());
                assertEquals(want.stdout(), got.stdout(), String.join(" ", command));
            }
        }
        CliRun past = CliRun.of("replay", store.toString(), "--at", String.valueOf(lastSeq + 1));
        assertEquals(2, past.exit(), past.stderr());
        assertTrue(past.stderr().contains("whose last seq is " + lastSeq), past.stderr());

        // The lines before the nearest base are passed over, not read.
        long lastFirst = firstSeqs.stream().filter(first -> first <= lastSeq).reduce((a, b) -> b).orElseThrow();
        try (StoreLog near = StoreLog.openNear(store, lastSeq, UnaryOperator.identity())) {
            assertEquals(lastFirst - 1, near.seqBefore(), "read from the base of the last segment with lines");
            assertEquals(lastFirst - firstSeqs.get(0), near.linesPassedOver());
        }
    }
}
