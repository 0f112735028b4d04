package io.kvledger.tests.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import io.kvledger.infrastructure.store.RecoveryReport;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SIGKILL while the store itself is busy: a child appends batches of about 2 MB straight to the
 * store, and the kill is aimed at the end of a batch, where its write is, so it often lands inside a
 * write and leaves a partial append behind (a torn line, or whole lines of an unfinished append). Opening must cut exactly that append: every acknowledged
 * event stays, unchanged, and the file ends on an append boundary.
 *
 * <p>One round by default; {@code -Dkvledger.killRounds=N} runs N (a stress run, not for the suite).
 */
class KillDuringBulkAppendTest {

    private static final int ACKNOWLEDGED_APPENDS = 5;

    @TempDir
    Path dir;

    @Test
    void aKillInsideAWriteLosesOnlyTheUnacknowledgedAppend() throws Exception {
        int rounds = Integer.getInteger("kvledger.killRounds", 1);
        int torn = 0;
        for (int round = 1; round <= rounds; round++) {
            RecoveryReport report = killAndCheck(dir.resolve("bulk-" + round + ".jsonl"), round);
            torn += report.recovered() ? 1 : 0;
        }
        System.out.printf("KillDuringBulkAppendTest: %d round(s), %d with a torn end cut%n", rounds, torn);
    }

    private RecoveryReport killAndCheck(Path file, int round) throws Exception {
        Path stderr = dir.resolve("bulk-" + round + ".stderr");
        Process child = new ProcessBuilder(KillDuringAppendTest.javaCommand(BulkAppendingChild.class.getName(), file.toString(), "never"))
                .redirectError(stderr.toFile())
                .start();
        long acknowledged = 0;
        try (BufferedReader out = child.inputReader(StandardCharsets.UTF_8)) {
            long previous = 0;
            long period = 0;
            for (int appends = 0; appends <= ACKNOWLEDGED_APPENDS; appends++) {
                String line = out.readLine();
                assertNotNull(line, () -> "the child ended early: " + readQuietly(stderr));
                acknowledged = Long.parseLong(line.substring("ack ".length()));
                long now = System.nanoTime();
                period = previous == 0 ? 0 : now - previous;
                previous = now;
            }
            // Encoding comes first and the write last: aim at the second half of the next append.
            LockSupport.parkNanos(period / 2 + ThreadLocalRandom.current().nextLong(Math.max(1, period / 2)));
            assertTrue(child.toHandle().destroyForcibly(), "SIGKILL could not be sent"); // keeps our pipe open, see KillDuringAppendTest
            assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the child did not die");
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                acknowledged = Long.parseLong(line.substring("ack ".length()));
            }
        }
        child.destroyForcibly();
        assertEquals(128 + 9, child.exitValue(), "killed by SIGKILL");
        long sizeAfterKill = Files.size(file);

        RecoveryReport report;
        long stored;
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS)) {
            report = store.recoveryReport();
            stored = store.lastSeq();
        }
        assertTrue(stored >= acknowledged, "stored " + stored + " < acknowledged " + acknowledged + "; " + report);
        assertEquals(0, (stored - 1) % BulkAppendingChild.BATCH, "the file ends on an append boundary: " + stored);
        assertEquals(sizeAfterKill - report.bytesCut(), Files.size(file));
        List<LogEntry> log = StoreLogs.read(file);
        assertEquals(stored, log.size());
        for (LogEntry entry : log) {
            assertEquals(BulkAppendingChild.event(entry.seq() - 1), entry.event(), "line " + entry.line());
        }
        System.out.printf("KillDuringBulkAppendTest round %d: acknowledged seq %d, stored %d, recovery: %s%n",
                round, acknowledged, stored, report);
        return report;
    }

    private static String readQuietly(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "(cannot read " + file + ")";
        }
    }
}
