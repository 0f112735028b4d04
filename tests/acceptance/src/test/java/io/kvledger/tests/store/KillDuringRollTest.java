package io.kvledger.tests.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.SegmentedEventStorageEngine;
import io.kvledger.infrastructure.store.StoreLog;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real process stepping over a store directory with small segments (a roll every few steps, the
 * closed segment compressed in the background, snapshots within segments, retention dropping the
 * oldest) is SIGKILLed at a random moment, so kills land in rolls, compressions, snapshots and
 * retention. Reopening loses no acknowledged event, leaves no half segment (every segment reads whole,
 * compressed or not, the segments' seqs follow on, each but the first begins at its base) and no
 * temporary file, holds exactly the events the engine decided, resumes to their fold and takes new
 * steps. Twenty rounds by default, the fsync policies in turn; {@code -Dkvledger.killRounds=N} (the
 * {@code kill-soak} profile) runs N.
 */
class KillDuringRollTest {

    private static final List<String> POLICIES = List.of("never", "interval:5", "always");
    private static final int PROMPT_TOKENS = 64;

    @TempDir
    Path dir;

    @Test
    void aSigkillDuringARollACompressionOrRetentionLosesNothingAcknowledgedAndLeavesNoHalfSegment() throws Exception {
        int rounds = Integer.getInteger("kvledger.killRounds", 20);
        long rolls = 0;
        for (int round = 1; round <= rounds; round++) {
            rolls += killAndCheck(dir.resolve("store-" + round), round);
        }
        System.out.printf("KillDuringRollTest: %d round(s), %d rolls acknowledged before the kills%n", rounds, rolls);
    }

    private long killAndCheck(Path store, int round) throws Exception {
        String policy = POLICIES.get((round - 1) % POLICIES.size());
        Path stderr = dir.resolve("child-" + round + ".stderr");
        Process child = new ProcessBuilder(KillDuringAppendTest.javaCommand(SegmentedAppendingChild.class.getName(),
                store.toString(), policy, String.valueOf(PROMPT_TOKENS)))
                .redirectError(stderr.toFile())
                .start();
        int steps = 10 + ThreadLocalRandom.current().nextInt(50);
        long acknowledged = 0;
        long rolls = 0;
        try (BufferedReader out = child.inputReader(StandardCharsets.UTF_8)) {
            for (int step = 0; step < steps; step++) {
                String line = out.readLine();
                assertNotNull(line, () -> "the child ended early: " + read(stderr));
                String[] parts = line.split(" ");
                acknowledged = Long.parseLong(parts[1]);
                rolls = Long.parseLong(parts[2]);
            }
            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(TimeUnit.MILLISECONDS.toNanos(3)));
            assertTrue(child.toHandle().destroyForcibly(), "SIGKILL could not be sent");
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child did not die");
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                acknowledged = Long.parseLong(line.split(" ")[1]);
            }
        }
        child.destroyForcibly();
        assertEquals(128 + 9, child.exitValue(), "killed by SIGKILL, not finished");

        // The readers, on what the kill left (a torn step, a segment both plain and compressed, temporary files),
        // before any opener tidied it: they must read what the opener then keeps.
        Map<Long, EngineEvent> readBeforeOpen = readSeqs(store);
        StoreReadersAgreeTest.Run export = StoreReadersAgreeTest.cli("export", "--store", "file:" + store + "/");
        boolean fromFirst = readBeforeOpen.containsKey(1L);
        assertEquals(fromFirst ? 0 : 2, export.exit(), "round " + round + ": " + export);
        if (fromFirst) {
            assertEquals(readBeforeOpen.size(), export.stdout().lines().count(), "round " + round + ": export reads what audit reads");
        } else {
            assertTrue(export.stderr().contains("retention dropped the ones before"), export.stderr());
        }

        long stored;
        try (SegmentedEventStorageEngine reopened = SegmentedEventStorageEngine.open(store, FsyncPolicy.ALWAYS,
                SegmentedAppendingChild.POLICY)) {
            stored = reopened.lastSeq();
            reopened.awaitBackground();
        }
        assertTrue(stored >= acknowledged, "round " + round + ": stored " + stored + " < acknowledged " + acknowledged);

        List<Path> segments = segmentsWhole(store, stored);
        long firstKept = firstSeq(segments.get(0));
        List<EngineEvent> kept = new ArrayList<>();
        try (StoreLog log = StoreLog.open(store, UnaryOperator.identity())) {
            EventLogReader reader = log.reader();
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                kept.add(entry.event());
            }
        }
        Map<Long, EngineEvent> readAfterOpen = readSeqs(store);
        readBeforeOpen.keySet().removeIf(seq -> seq < firstKept); // retention may have gone on once opened
        assertEquals(readBeforeOpen, readAfterOpen, "round " + round + ": the readers read before the open what the opener kept");
        List<EngineEvent> expected = expected(stored);
        assertEquals(stored - firstKept + 1, kept.size());
        assertTrue(expected.subList((int) firstKept - 1, (int) stored).equals(kept),
                "round " + round + ": the kept segments hold the events the engine decided, seq " + firstKept + " to " + stored);
        EngineState fold = null;
        for (EngineEvent event : expected.subList(0, (int) stored)) {
            fold = EngineFold.evolve(fold, event);
        }
        try (KvLedger ledger = KvLedger.builder().store(FileStores.directory(store, FsyncPolicy.ALWAYS,
                SegmentedAppendingChild.POLICY)).build()) {
            assertTrue(ledger.resumed());
            assertEquals(fold, ledger.state(), "round " + round + ": resumed to the fold of every stored event");
            StepResult result = ledger.step(List.of(new RegisterRequest("after-kill", List.of(1, 2, 3))));
            assertEquals(1, result.events().size());
        }
        System.out.printf("KillDuringRollTest round %d (fsync %s): acknowledged seq %d, stored %d, %d rolls before the kill,"
                + " segments kept from seq %d%n", round, policy, acknowledged, stored, rolls, firstKept);
        return rolls;
    }

    /** What the log tools read of the directory: each event by its seq. */
    private static Map<Long, EngineEvent> readSeqs(Path store) throws Exception {
        Map<Long, EngineEvent> events = new TreeMap<>();
        try (StoreLog log = StoreLog.open(store, UnaryOperator.identity())) {
            EventLogReader reader = log.reader();
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                events.put(entry.seq(), entry.event());
            }
        }
        return events;
    }

    /** The segments, each read whole (a compressed one to its gzip trailer), following on, ending at {@code stored}. */
    private static List<Path> segmentsWhole(Path store, long stored) throws Exception {
        List<Path> segments;
        try (Stream<Path> files = Files.list(store)) {
            List<Path> all = files.toList();
            assertTrue(all.stream().noneMatch(file -> file.toString().endsWith(".tmp")), "no temporary file left: " + all);
            segments = all.stream().filter(f -> f.getFileName().toString().matches("segment-\\d{20}\\.jsonl(\\.gz)?"))
                    .sorted().toList();
        }
        long next = -1;
        for (Path segment : segments) {
            long first = firstSeq(segment);
            assertTrue(next < 0 || first == next, segment + " follows on from seq " + next);
            if (first > 1) {
                String plain = segment.getFileName().toString().replace(".gz", "");
                assertTrue(Files.exists(segment.resolveSibling(plain + ".base")), segment + " has its base");
            }
            long last = first - 1;
            try (StoreLog log = StoreLog.open(segment, UnaryOperator.identity())) {
                EventLogReader reader = log.reader(); // from the segment's base
                for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                    last = entry.seq();
                }
            }
            next = last + 1;
        }
        assertEquals(stored + 1, next, "the segments end at the store's last seq");
        return segments;
    }

    private static long firstSeq(Path segment) {
        return Long.parseLong(segment.getFileName().toString().substring("segment-".length(), "segment-".length() + 20));
    }

    /** The events the same steps give in memory, at least {@code count}. */
    private static List<EngineEvent> expected(long count) {
        List<EngineEvent> events = new ArrayList<>();
        try (KvLedger ledger = KvLedger.builder().config(SteadyWorkload.config(PROMPT_TOKENS)).build()) {
            events.add(ledger.configured());
            SteadyWorkload workload = new SteadyWorkload(PROMPT_TOKENS);
            StepResult result = null;
            while (events.size() < count) {
                result = ledger.step(workload.next(result));
                events.addAll(result.events());
            }
        }
        return events;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
    }
}
