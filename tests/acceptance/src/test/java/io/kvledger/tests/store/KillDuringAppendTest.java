package io.kvledger.tests.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import io.kvledger.infrastructure.store.RecoveryReport;
import io.kvledger.infrastructure.store.StoreLockedException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real process appending through the facade and the file store is killed with SIGKILL while it
 * runs flat out, at a random moment of a step. Whatever it saw written must be in the file,
 * unchanged; the file must open (a torn end cut), read cleanly as a log of whole steps, the steps the
 * engine decided, and take new appends. The rounds take the fsync policies in turn ({@code never},
 * {@code interval:5}, {@code always}): under {@code always} every returned step was written and
 * forced before it returned; under {@code never} and {@code interval} steps return before the writer
 * thread writes them (some acknowledgements must show it), and the kill may lose those queued, not
 * more, and never part of a step. Steps are tens of kilobytes, so a kill can land
 * inside a write that spans pages; the store snapshots every few steps, so a kill can land inside a
 * snapshot's write too, and the store must still open from a whole snapshot.
 *
 * <p>Three rounds by default; {@code -Dkvledger.killRounds=N} runs N and {@code -Dkvledger.killPromptTokens=T}
 * makes steps bigger (stress runs, not for the suite).
 */
class KillDuringAppendTest {

    private static final int ACKNOWLEDGED_STEPS = 300;
    private static final List<String> POLICIES = List.of("never", "interval:5", "always");
    /** A snapshot every few steps, so that a kill also lands while one is written. */
    private static final long SNAPSHOT_EVERY = 500;
    /** About 14 KB a step: a write that spans pages. */
    private static final int PROMPT_TOKENS = Integer.getInteger("kvledger.killPromptTokens", 256);

    @TempDir
    Path dir;

    @Test
    void everyAcknowledgedEventSurvivesASigkillAndTheStoreGoesOn() throws Exception {
        int rounds = Integer.getInteger("kvledger.killRounds", POLICIES.size());
        int torn = 0;
        for (int round = 1; round <= rounds; round++) {
            RecoveryReport report = killAndCheck(dir.resolve("store-" + round + ".jsonl"), round);
            torn += report.recovered() ? 1 : 0;
        }
        System.out.printf("KillDuringAppendTest: %d round(s), %d with a torn end cut%n", rounds, torn);
    }

    private RecoveryReport killAndCheck(Path file, int round) throws Exception {
        Path stderr = dir.resolve("child-" + round + ".stderr");
        String policy = POLICIES.get((round - 1) % POLICIES.size());
        Process child = new ProcessBuilder(javaCommand(AppendingChild.class.getName(), file.toString(), policy,
                String.valueOf(PROMPT_TOKENS), String.valueOf(SNAPSHOT_EVERY)))
                .redirectError(stderr.toFile())
                .start();
        long acknowledged = 0;
        int returnedBeforeWritten = 0;
        try (BufferedReader out = child.inputReader(StandardCharsets.UTF_8)) {
            int steps = 0;
            while (steps < ACKNOWLEDGED_STEPS) {
                String line = out.readLine();
                assertNotNull(line, () -> "the child ended early: " + read(stderr));
                if (line.startsWith("ack ")) {
                    acknowledged = acknowledgedSeq(line, policy);
                    returnedBeforeWritten += decidedSeq(line) > acknowledged ? 1 : 0;
                    steps++;
                }
                if (steps == 100) {
                    assertVisibleToAnotherReader(file, acknowledged);
                }
                if (steps == 50 && round == 1) {
                    assertThrows(StoreLockedException.class, () -> JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS),
                            "another process's lock is honoured");
                }
            }
            // Somewhere in the next step: deciding, encoding or writing.
            LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(TimeUnit.MILLISECONDS.toNanos(3)));
            // SIGKILL, as Process.destroyForcibly() sends it; that method would also close our end of the
            // pipe, and the acknowledgements still in it would be lost to the check below.
            assertTrue(child.toHandle().destroyForcibly(), "SIGKILL could not be sent");
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child did not die");
            // Acknowledgements still in the pipe were promises too.
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                if (line.startsWith("ack ")) {
                    acknowledged = acknowledgedSeq(line, policy);
                }
            }
        }
        child.destroyForcibly(); // dead already; releases the streams
        if (!policy.equals("always")) {
            assertTrue(returnedBeforeWritten > 0, "under " + policy + " some step returned before the writer wrote it");
        }
        assertEquals(128 + 9, child.exitValue(), "killed by SIGKILL, not finished");

        RecoveryReport report;
        long stored;
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS)) {
            report = store.recoveryReport();
            stored = store.lastSeq();
            // A kill inside a snapshot's write leaves the one before it, whole (it is renamed into place).
            assertTrue(store.openedFromSnapshot(), "opened from a snapshot: " + store.snapshotRejected());
        }
        assertTrue(stored >= acknowledged, "stored " + stored + " < acknowledged " + acknowledged + "; " + report);

        List<LogEntry> log = StoreLogs.read(file);
        assertEquals(stored, log.size());
        for (LogEntry entry : log) {
            assertEquals(entry.line(), entry.seq());
        }
        StoreLogs.assertStepFraming(log);
        Expected expected = expected(stored);
        assertTrue(expected.stepEnds().contains(stored), "the file ends where a step ends: " + stored);
        assertEquals(expected.events().subList(0, (int) stored), log.stream().map(LogEntry::event).toList(),
                "every stored event is the one the engine decided");

        try (KvLedger ledger = FileStores.ledger(file, FsyncPolicy.ALWAYS)) {
            assertTrue(ledger.resumed());
            ledger.step(List.of(new RegisterRequest("after-kill", List.of(1, 2, 3))));
        }
        List<LogEntry> after = StoreLogs.read(file);
        assertEquals(stored + 1, after.size());
        assertEquals(new RequestRegistered("after-kill", 3, List.of(1, 2, 3)), after.get(after.size() - 1).event());
        System.out.printf("KillDuringAppendTest round %d (fsync %s): written seq %d acknowledged, stored %d, %d of %d steps"
                + " returned before written, recovery: %s%n", round, policy, acknowledged, stored, returnedBeforeWritten,
                ACKNOWLEDGED_STEPS, report);
        return report;
    }

    /**
     * A returned step is in the operating system's hands: this process, with its own file handle,
     * reads every acknowledged line while the child goes on appending.
     */
    private static void assertVisibleToAnotherReader(Path file, long acknowledged) throws IOException, MalformedLogException {
        try (InputStream in = Files.newInputStream(file)) {
            EventLogReader reader = new EventLogReader(in);
            long seq = 0;
            while (seq < acknowledged) {
                LogEntry entry = reader.next();
                assertNotNull(entry, "acknowledged seq " + acknowledged + " is not in the file; it ends at " + seq);
                seq = entry.seq();
            }
        }
    }

    /**
     * The written seq of {@code ack WRITTEN FORCED DECIDED}; under {@code always}, a returned step was
     * written and forced before it returned.
     */
    private static long acknowledgedSeq(String line, String policy) {
        String[] parts = line.split(" ");
        long seq = Long.parseLong(parts[1]);
        long forced = Long.parseLong(parts[2]);
        if (policy.equals("always")) {
            assertEquals(decidedSeq(line), seq, "under fsync always a returned step is written: " + line);
            assertEquals(seq, forced, "under fsync always a returned step is on disk: " + line);
        } else if (policy.equals("never")) {
            assertEquals(0, forced, "under fsync never nothing is forced: " + line);
        }
        assertTrue(forced <= seq, line);
        assertTrue(seq <= decidedSeq(line), line);
        return seq;
    }

    private static long decidedSeq(String line) {
        return Long.parseLong(line.split(" ")[3]);
    }

    private record Expected(List<EngineEvent> events, Set<Long> stepEnds) {
    }

    /** The events the same steps give in memory, at least {@code count}, and where each step ends. */
    private static Expected expected(long count) {
        List<EngineEvent> events = new ArrayList<>();
        Set<Long> stepEnds = new HashSet<>();
        try (KvLedger ledger = KvLedger.builder().config(SteadyWorkload.config(PROMPT_TOKENS)).build()) {
            events.add(ledger.configured());
            stepEnds.add(1L);
            SteadyWorkload workload = new SteadyWorkload(PROMPT_TOKENS);
            StepResult result = null;
            while (events.size() < count) {
                result = ledger.step(workload.next(result));
                events.addAll(result.events());
                stepEnds.add((long) events.size());
            }
        }
        return new Expected(events, stepEnds);
    }

    /** {@code java} of this JVM on the test classpath (surefire's own, not its booter jar's). */
    static List<String> javaCommand(String mainClass, String... args) {
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Daxoniq.update-checker.disabled=true", "-Ddisable-axoniq-console-message=true",
                "-cp", classpath, mainClass));
        command.addAll(List.of(args));
        return command;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e + ")";
        }
    }
}
