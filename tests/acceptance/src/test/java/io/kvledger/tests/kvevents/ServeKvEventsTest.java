package io.kvledger.tests.kvevents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kvledger.infrastructure.cli.KvLedgerCli;
import io.kvledger.infrastructure.kvevents.KvEvent;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.zeromq.ZMQ;

/**
 * {@code kvledger serve --kv-events}, with the options of {@code run}: a real server child process on standard
 * streams, driven step by step, publishes its tier changes to a subscriber it waited for, as derived from the
 * events the server answered.
 */
class ServeKvEventsTest {

    /** Ports of issue 14's range (51400-51499). */
    private static final String ENDPOINT = "tcp://127.0.0.1:51418";

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aServedEnginePublishesItsTierChangesToASubscriberItWaitedFor() throws Exception {
        Path scenario = dir.resolve("sim.scenario.jsonl");
        assertEquals(0, KvLedgerCli.execute(new ByteArrayOutputStream(), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), "simulate", "--requests", "30", "--seed", "9", "-o",
                dir.resolve("sim.jsonl").toString(), "--scenario", scenario.toString()));
        List<String> lines = Files.readAllLines(scenario);
        JsonNode config = JSON.readTree(lines.get(0)).get("config");

        Process server = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), "io.kvledger.infrastructure.serve.ServeCommand",
                "--stdio", "--kv-events", ENDPOINT, "--kv-events-topic", "kv@pod-s@model", "--kv-events-wait", "30000",
                "--kv-events-encoding", "ARRAY")
                .redirectError(dir.resolve("serve.err").toFile()).start();
        SubscriberFrames.Connected connected;
        try {
            connected = SubscriberFrames.handshaken(ENDPOINT);
        } catch (AssertionError noHandshake) {
            // Say why: the server gone (its stderr says what stopped it) or still up without publishing.
            boolean alive = server.isAlive();
            server.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            throw new AssertionError(noHandshake.getMessage() + "; the server " + (alive ? "was still running" : "had exited "
                    + server.exitValue()) + "; its stderr: " + Files.readString(dir.resolve("serve.err")), noHandshake);
        }
        Path log = dir.resolve("served.jsonl");
        try (BufferedWriter to = new BufferedWriter(new OutputStreamWriter(server.getOutputStream(), StandardCharsets.UTF_8));
             BufferedReader from = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
             BufferedWriter events = Files.newBufferedWriter(log)) {
            JsonNode hello = ask(to, from, "{\"hello\": {\"protocol\": 1, \"client\": \"test\", \"config\": " + config + "}}");
            events.write(hello.get("hello").get("config").toString() + "\n");
            // A step per five commands, as a scheduler would send them.
            for (int i = 1; i < lines.size(); i += 5) {
                List<String> step = new ArrayList<>(lines.subList(i, Math.min(lines.size(), i + 5)));
                JsonNode answer = ask(to, from, "{\"step\": [" + String.join(",", step) + "]}");
                for (JsonNode event : answer.get("events")) {
                    events.write(event.toString() + "\n");
                }
            }
        }
        try {
            assertTrue(server.waitFor(60, TimeUnit.SECONDS), "the end of standard input stops the server");
            assertEquals(0, server.exitValue(), Files.readString(dir.resolve("serve.err")));
            List<KvEvent> expected = KvEventsFromLog.expected(RunKvEventsTest.read(log));
            assertTrue(expected.size() > 10, "the engine stores chunks: " + expected.size());
            ZMQ.Socket sub = connected.sub();
            SubscriberFrames.assertReceivesExactly(sub, "kv@pod-s@model", expected);
        } finally {
            server.destroyForcibly();
            connected.context().close();
        }
    }

    private static JsonNode ask(BufferedWriter to, BufferedReader from, String request) throws Exception {
        to.write(request);
        to.write("\n");
        to.flush();
        String line = from.readLine();
        assertTrue(line != null, "the server answered " + request);
        JsonNode answer = JSON.readTree(line);
        assertTrue(!answer.has("error"), answer.toString());
        return answer;
    }
}
