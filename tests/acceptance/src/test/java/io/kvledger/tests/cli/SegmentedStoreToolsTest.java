package io.kvledger.tests.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.SegmentedStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import io.kvledger.infrastructure.store.SegmentPolicy;
import io.kvledger.infrastructure.store.SegmentedEventStorageEngine;
import io.kvledger.infrastructure.store.StoreLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A store directory through the command line: {@code replay}, {@code audit} and {@code explain} of the
 * directory (segments rolled, snapshotted and compressed) print what they print of a plain store fed
 * the same steps; every single segment, compressed or not, audits clean on its own from its base, and
 * replays to the state the whole log has at its last line; what the directory holds equals what an
 * unstored ledger decided.
 */
class SegmentedStoreToolsTest {

    private static final EngineConfig CONFIG = EngineConfig.DEFAULTS.withGpuBlockSize(4).withCpuCapacityChunks(24);
    private static final int STEPS = 120;

    @TempDir
    Path dir;

    @Test
    void theToolsReadADirectoryAndEachSegmentAsThePlainStore() throws Exception {
        Path store = dir.resolve("store");
        Path plain = dir.resolve("plain.jsonl");
        List<EngineEvent> unstored = new ArrayList<>();
        try (SegmentedEventStorageEngine segmented = SegmentedEventStorageEngine.open(store, FsyncPolicy.NEVER,
                SegmentPolicy.DEFAULTS.withSegmentBytes(16_384).withSnapshotEvery(40));
                KvLedger directory = SegmentedStores.builder(segmented).config(CONFIG).build();
                KvLedger file = FileStores.builder(JsonlEventStorageEngine.open(plain, FsyncPolicy.NEVER, 0)).config(CONFIG).build();
                KvLedger memory = KvLedger.builder().config(CONFIG).build()) {
            Workload workload = new Workload();
            for (int i = 0; i < STEPS; i++) {
                List<EngineCommand> commands = workload.next();
                StepResult result = directory.step(commands);
                assertEquals(result.events(), file.step(commands).events());
                StepResult free = memory.step(commands);
                assertEquals(free.events(), result.events());
                unstored.addAll(free.events());
                workload.observe(result);
            }
            segmented.awaitBackground();
            assertTrue(segmented.closedSegments().size() >= 3, "rolled: " + segmented.closedSegments());
        }
        List<Path> segments;
        try (Stream<Path> files = Files.list(store)) {
            segments = files.filter(f -> f.getFileName().toString().matches("segment-\\d+\\.jsonl(\\.gz)?")).sorted().toList();
        }
        assertTrue(segments.get(0).toString().endsWith(".gz") && !segments.get(segments.size() - 1).toString().endsWith(".gz"),
                "closed segments compressed, the current one plain: " + segments);

        List<EngineEvent> stored = read(store);
        assertTrue(stored.get(0) instanceof EngineConfigured, "the directory's log begins with the config");
        assertTrue(unstored.equals(stored.subList(1, stored.size())), "the directory holds what the unstored ledger decided,"
                + " in order: " + unstored.size() + " decided, " + (stored.size() - 1) + " stored");
        for (String[] command : new String[][] {{"replay"}, {"replay", "--json"}, {"audit"}, {"explain", "--job", "30"},
                {"replay", "--at", "700"}, {"replay", "--request", "r" + (STEPS - 1)}}) {
            assertSame(command, plain, store);
        }
        // The newest segment with lines (a roll at the last step leaves the current one empty).
        Path last = segments.stream().filter(s -> s.toFile().length() > 0).reduce((a, b) -> b).orElseThrow();
        for (Path segment : segments) {
            CliRun audit = CliRun.of("audit", segment.toString());
            assertEquals(0, audit.exit(), segment + ": " + audit.stdout() + audit.stderr());
        }
        for (String[] command : new String[][] {{"replay", "--request", "r" + (STEPS - 1)}, {"replay", "--request", "r" + (STEPS - 2)}}) {
            assertSame(command, plain, last);
        }
        long lastJob = lastJob(read(last));
        assertSame(new String[] {"explain", "--job", String.valueOf(lastJob)}, plain, last);
    }

    private static void assertSame(String[] command, Path expected, Path actual) {
        CliRun want = CliRun.of(with(command, expected));
        CliRun got = CliRun.of(with(command, actual));
        assertEquals(0, want.exit(), want.stderr());
        assertEquals(want.exit(), got.exit(), got.stderr());
        assertEquals(want.stdout(), got.stdout(), String.join(" ", command) + " of " + actual);
    }

    /** The events a tool reads of a store, a segment or a log (from its base, after a first segment). */
    static List<EngineEvent> read(Path path) throws Exception {
        List<EngineEvent> events = new ArrayList<>();
        try (StoreLog log = StoreLog.open(path, UnaryOperator.identity())) {
            EventLogReader reader = log.reader();
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                events.add(entry.event());
            }
        }
        return events;
    }

    static long lastJob(List<EngineEvent> events) {
        long job = -1;
        for (EngineEvent event : events) {
            if (event instanceof StoreJobScheduled store) {
                job = store.jobId();
            }
        }
        assertTrue(job >= 0, "the segment schedules a store");
        return job;
    }

    /** {@code command} with {@code file} as its first argument. */
    static String[] with(String[] command, Path file) {
        String[] args = new String[command.length + 1];
        args[0] = command[0];
        args[1] = file.toString();
        System.arraycopy(command, 1, args, 2, command.length - 1);
        return args;
    }

    /** Each step: a request prefilled, the one before finished (every fifth preempted first), stores completed. */
    static final class Workload {
        private int step;
        private int nextBlock;
        private final List<Long> jobs = new ArrayList<>();

        List<EngineCommand> next() {
            List<EngineCommand> commands = new ArrayList<>();
            jobs.forEach(job -> commands.add(new CompleteTransfer(job, step % 7 != 0)));
            jobs.clear();
            String id = "r" + step;
            commands.add(new RegisterRequest(id, IntStream.range(0, 16).map(t -> t < 8 ? (t + step % 3) * 5 : step * 100 + t).boxed().toList()));
            commands.add(new MatchPrefix(id, 0));
            commands.add(new AllocateBlocks(id, List.of(nextBlock++, nextBlock++, nextBlock++, nextBlock++), 0));
            commands.add(new ComputeTokens(id, 16));
            if (step > 0) {
                if (step % 5 == 0) {
                    commands.add(new PreemptRequest("r" + (step - 1)));
                }
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
