package io.kvledger.tests.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk, for real: the test mounts a 512 KB tmpfs (it runs as root, as the project's machines
 * do) and steps a ledger on a store there until the disk is full. The step that does not fit fails
 * with an error naming the store and the cause; every acknowledged step is in the file and nothing
 * after it; once there is room again the same ledger goes on, consistently with its log; the store
 * reopens to the same state. The tmpfs is unmounted afterwards.
 */
class DiskFullTest {

    private static final int PROMPT_TOKENS = 64;

    @TempDir
    Path dir;

    @Test
    void aStepThatDoesNotFitFailsClearlyLosesNothingAcknowledgedAndTheStoreGoesOn() throws Exception {
        Path mount = Files.createDirectories(dir.resolve("tmpfs"));
        run("mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", mount.toString());
        try {
            Path file = mount.resolve("store.jsonl");
            Path filler = mount.resolve("filler");
            Files.write(filler, new byte[256 * 1024]); // room enough for a few dozen steps only
            long acknowledged = 0;
            RuntimeException failure = null;
            SteadyWorkload workload = new SteadyWorkload(PROMPT_TOKENS);
            try (KvLedger ledger = FileStores.builder(JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS, 0))
                    .config(SteadyWorkload.config(PROMPT_TOKENS)).build()) {
                StepResult result = null;
                for (int step = 0; step < 10_000 && failure == null; step++) {
                    try {
                        result = ledger.step(workload.next(result));
                        acknowledged = Files.size(file);
                    } catch (RuntimeException e) {
                        failure = e;
                    }
                }
                assertNotNull(failure, "the disk never filled");
                String message = messages(failure);
                assertTrue(message.contains(file.toString()) && message.contains("No space left on device"), message);
                assertEquals(acknowledged, Files.size(file), "the failed step's bytes are cut: the file ends at the last acknowledged step");

                Files.delete(filler);
                for (int step = 0; step < 5; step++) {
                    result = ledger.step(workload.next(null));
                }
                assertEquals(fold(file), ledger.state(), "after the failure the ledger goes on consistently with its log");
                EngineState live = ledger.state();
                ledger.close();
                try (KvLedger reopened = FileStores.ledger(file, FsyncPolicy.ALWAYS)) {
                    assertEquals(live, reopened.state());
                }
            }
        } finally {
            run("umount", mount.toString());
        }
    }

    /**
     * Under {@code never} a step returns before its write: the step whose write finds the disk full has
     * returned already, so the NEXT step fails, naming the steps not stored; the file ends at a whole
     * step the ledger had returned, and once there is room the reopened ledger resumes there.
     */
    @Test
    void underNeverAWriteThatDoesNotFitFailsTheNextStepAndTheFileResumesAtAWholeStep() throws Exception {
        Path mount = Files.createDirectories(dir.resolve("tmpfs-never"));
        run("mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", mount.toString());
        try {
            Path file = mount.resolve("store.jsonl");
            Path filler = mount.resolve("filler");
            Files.write(filler, new byte[256 * 1024]);
            List<EngineState> returned = new ArrayList<>();
            RuntimeException failure = null;
            SteadyWorkload workload = new SteadyWorkload(PROMPT_TOKENS);
            try (KvLedger ledger = FileStores.builder(JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER, 0))
                    .config(SteadyWorkload.config(PROMPT_TOKENS)).build()) {
                returned.add(ledger.state().copy()); // copies: the state is folded in place at the next step
                StepResult result = null;
                for (int step = 0; step < 10_000 && failure == null; step++) {
                    try {
                        result = ledger.step(workload.next(result));
                        returned.add(result.state().copy());
                    } catch (RuntimeException e) {
                        failure = e;
                    }
                }
                assertNotNull(failure, "the disk never filled");
                String message = messages(failure);
                assertTrue(message.contains(file.toString()) && message.contains("No space left on device")
                        && message.contains("had returned to the host but are not stored"), message);
            } // the failure was reported: closing does not throw it again
            EngineState stored = fold(file);
            int at = returned.indexOf(stored);
            assertTrue(at >= 0, "the file is the log of a step the ledger returned, whole");
            assertTrue(at < returned.size() - 1, "the step whose write failed had returned: it is not in the file");
            Files.delete(filler);
            try (KvLedger reopened = FileStores.ledger(file, FsyncPolicy.NEVER)) {
                assertEquals(stored, reopened.state());
                reopened.step(workload.next(null));
            }
        } finally {
            run("umount", mount.toString());
        }
    }

    private static EngineState fold(Path file) throws Exception {
        EngineState state = null;
        for (LogEntry entry : StoreLogs.read(file)) {
            EngineEvent event = entry.event();
            state = EngineFold.evolve(state, event);
        }
        return state;
    }

    private static String messages(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            text.append(t).append(" | ");
        }
        return text.toString();
    }

    private static void run(String... command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), String.join(" ", command) + " hung");
        assertEquals(0, process.exitValue(), String.join(" ", command) + ": " + output);
    }

}
