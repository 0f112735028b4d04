package io.kvledger.tests.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.cli.KvLedgerCli;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exit statuses of a signal (docs/failures.md): {@code run} stopped by SIGTERM before its scenario ended
 * did not do its work, so it exits 143 as a process ended by SIGTERM does, never 0, and the steps it had
 * stored stay whole (a stopped {@code serve} is the one command whose stop is a success: exit 0,
 * {@code ShutdownOnSigtermTest}).
 */
class RunStoppedBySigtermTest {

    @TempDir
    Path dir;

    @Test
    void aRunStoppedBySigtermExits143AndKeepsItsStoredStepsWhole() throws Exception {
        Path store = dir.resolve("engine.jsonl");
        Path stderr = dir.resolve("run.stderr");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // The scenario comes through a pipe that stays open: the run is still at work when SIGTERM arrives.
        Process run = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                KvLedgerCli.class.getName(), "run", "/dev/stdin", "--store", store.toString()))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(stderr.toFile()).start();
        try {
            OutputStream scenario = run.getOutputStream();
            StringBuilder lines = new StringBuilder("{\"config\": {\"gpuBlockSize\": 4}}\n");
            for (int i = 0; i < 2_000; i++) {
                lines.append("{\"cmd\": \"RegisterRequest\", \"requestId\": \"r").append(i)
                        .append("\", \"promptTokens\": [1, 2, 3, 4, 5]}\n");
            }
            scenario.write(lines.toString().getBytes(StandardCharsets.UTF_8));
            scenario.flush();
            Awaitility.await().atMost(Duration.ofSeconds(120))
                    .until(() -> Files.exists(store) && Files.size(store) > 10_000 || !run.isAlive());
            assertTrue(run.isAlive(), () -> "still reading its scenario: " + read(stderr));
            run.destroy(); // SIGTERM
            assertTrue(run.waitFor(60, TimeUnit.SECONDS));
            assertEquals(143, run.exitValue(), "not done, so not 0: " + read(stderr));
        } finally {
            run.destroyForcibly();
            run.waitFor(30, TimeUnit.SECONDS);
        }
        try (JsonlEventStorageEngine reopened = JsonlEventStorageEngine.open(store, FsyncPolicy.NEVER)) {
            assertTrue(reopened.lastSeq() > 1, "the steps run before SIGTERM are stored");
            assertTrue(!reopened.recoveryReport().recovered(), "whole, nothing torn: " + reopened.recoveryReport());
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "(" + e + ")";
        }
    }
}
