package io.kvledger.infrastructure.serve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code kvledger serve} child process over a store file, stopped with a real SIGTERM while its
 * client keeps sending steps: it exits 0; the store holds exactly the steps it answered (the step in
 * progress is answered whole, a later one refused with {@code SHUTTING_DOWN}), the store reopens clean
 * (nothing torn, the lock released), the socket file is gone, and a new server continues the same engine.
 */
class ShutdownOnSigtermTest {

    @TempDir
    Path dir;

    @org.junit.jupiter.api.RepeatedTest(3) // the stop races the client's next step: each run a different interleaving
    void sigtermFlushesTheStoreAfterTheStepInProgress() throws Exception {
        Path store = dir.resolve("engine.jsonl");
        Path socket = dir.resolve("serve.sock");
        Path stderr = dir.resolve("serve.stderr");
        Process child = start(socket, store, stderr);
        long answeredSeq;
        String lastAnswer = "";
        List<long[]> steps = new ArrayList<>(); // {firstSeq, lastSeq} of every answered step
        try (UnixClient client = new UnixClient(socket)) {
            assertEquals(1, client.request("{\"hello\": {\"protocol\": 1, \"config\": {\"gpuBlockSize\": 4}}}")
                    .get("hello").get("lastSeq").intValue());
            answeredSeq = 1;
            for (int i = 0; i < 20; i++) {
                answeredSeq = step(client, i, steps);
            }
            // Steps keep coming while SIGTERM arrives: the one in progress finishes (or never started).
            child.destroy(); // SIGTERM
            for (int i = 20; i < 10_000; i++) {
                JsonNode answer;
                try {
                    answer = sendStep(client, i);
                } catch (java.io.IOException gone) {
                    // our step was written after the server closed: it read the SHUTTING_DOWN line left for us
                    JsonNode left;
                    try {
                        left = client.answer();
                    } catch (java.io.IOException reset) {
                        left = null;
                    }
                    lastAnswer = left == null ? "(none)" : left.toString();
                    break;
                }
                if (answer == null || answer.has("error")) {
                    lastAnswer = answer == null ? "(end of the connection)" : answer.toString();
                    break;
                }
                answeredSeq = record(answer, steps);
            }
        }
        assertTrue(child.waitFor(30, TimeUnit.SECONDS), "the server stopped");
        assertEquals(0, child.exitValue(), "a stopped sidecar is a success: " + read(stderr));
        String refusal = lastAnswer;
        assertTrue(refusal.contains("SHUTTING_DOWN"), () -> "a step after the stop began is refused: " + refusal + "\n" + read(stderr));
        assertTrue(read(stderr).contains("stopped after"), read(stderr));
        assertFalse(Files.exists(socket), "the socket file is removed");

        try (JsonlEventStorageEngine reopened = JsonlEventStorageEngine.open(store, FsyncPolicy.ALWAYS)) {
            assertFalse(reopened.recoveryReport().recovered(), "nothing torn: " + reopened.recoveryReport());
            assertEquals(answeredSeq, reopened.lastSeq(), "the store holds every answered step and no other");
        }
        assertEquals(List.of(), seqGaps(store));

        // A new server continues the same engine.
        Process again = start(socket, store, dir.resolve("again.stderr"));
        try (UnixClient client = new UnixClient(socket)) {
            JsonNode hello = client.hello().get("hello");
            assertTrue(hello.get("resumed").booleanValue());
            assertEquals(4, hello.get("config").get("gpuBlockSize").intValue());
        } finally {
            again.destroy();
            again.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static long step(UnixClient client, int i, List<long[]> steps) throws Exception {
        JsonNode answer = sendStep(client, i);
        assertNotNull(answer);
        return record(answer, steps);
    }

    private static long record(JsonNode answer, List<long[]> steps) {
        JsonNode events = answer.get("events");
        steps.add(new long[] {events.get(0).get("seq").longValue(), answer.get("lastSeq").longValue()});
        return answer.get("lastSeq").longValue();
    }

    /** Three events a step: a request registered, allocated and computed. */
    private static JsonNode sendStep(UnixClient client, int i) throws java.io.IOException {
        String id = "r" + i;
        return client.request("{\"step\": [{\"cmd\": \"RegisterRequest\", \"requestId\": \"" + id
                + "\", \"promptTokens\": [" + i + ", 2, 3]}, {\"cmd\": \"AllocateBlocks\", \"requestId\": \"" + id
                + "\", \"blockIds\": [" + i + "]}, {\"cmd\": \"ComputeTokens\", \"requestId\": \"" + id + "\", \"tokens\": 3}]}");
    }

    private static List<Long> seqGaps(Path store) throws Exception {
        List<Long> gaps = new ArrayList<>();
        try (InputStream in = Files.newInputStream(store)) {
            EventLogReader reader = new EventLogReader(in);
            long expected = 1;
            LogEntry entry;
            while ((entry = reader.next()) != null) {
                if (entry.seq() != expected) {
                    gaps.add(entry.seq());
                }
                expected = entry.seq() + 1;
            }
        }
        return gaps;
    }

    private static Process start(Path socket, Path store, Path stderr) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xmx256m", "-cp", System.getProperty("java.class.path"),
                ServeCommand.class.getName(), "--socket", socket.toString(), "--store", store.toString(),
                "--fsync", "never")
                .redirectError(stderr.toFile())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(socket) || !child.isAlive());
        assertTrue(child.isAlive(), () -> "the server did not start: " + read(stderr));
        return child;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            return "(" + e + ")";
        }
    }
}
