package io.kvledger.tests.kvevents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.cli.KvLedgerCli;
import io.kvledger.infrastructure.kvevents.KvEvent;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.zeromq.ZMQ;

/** {@code kvledger run --kv-events}: a subscriber on 127.0.0.1 gets the run's tier changes, checked against its log. */
class RunKvEventsTest {

    /** Ports of issue 14's range (51400-51499). */
    private static final String ENDPOINT = "tcp://127.0.0.1:51417";

    @TempDir
    Path dir;

    @Test
    void aRunPublishesItsTierChangesToASubscriberThatWasWaitedFor() throws Exception {
        Path scenario = dir.resolve("sim.scenario.jsonl");
        assertEquals(0, cli("simulate", "--requests", "40", "--seed", "5", "--reset-rate", "0.01",
                "-o", dir.resolve("sim.jsonl").toString(), "--scenario", scenario.toString()));
        Path log = dir.resolve("run.jsonl");
        CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> cli("run", scenario.toString(),
                "-o", log.toString(), "--kv-events", ENDPOINT, "--kv-events-topic", "kv@pod-a@model",
                "--kv-events-wait", "30000", "--kv-events-encoding", "ARRAY"));
        SubscriberFrames.Connected connected = SubscriberFrames.handshaken(ENDPOINT);
        try {
            ZMQ.Socket sub = connected.sub();
            assertEquals(0, run.get(60, TimeUnit.SECONDS));
            List<KvEvent> expected = KvEventsFromLog.expected(read(log));
            assertTrue(expected.size() > 10, "the run stores chunks: " + expected.size());
            SubscriberFrames.assertReceivesExactly(sub, "kv@pod-a@model", expected);
        } finally {
            connected.context().close();
        }
    }

    @Test
    void anEndpointThatCannotBeBoundExits2() throws Exception {
        Path scenario = Path.of(getClass().getResource("/examples/01_prefill_decode.jsonl").toURI());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = KvLedgerCli.execute(new ByteArrayOutputStream(), new PrintStream(err, true, StandardCharsets.UTF_8),
                "run", scenario.toString(), "--kv-events", "tcp://256.1.1.1:1");
        assertEquals(2, exit);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--kv-events"), err.toString(StandardCharsets.UTF_8));
    }

    private static int cli(String... args) {
        return KvLedgerCli.execute(new ByteArrayOutputStream(), new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), args);
    }

    static List<EngineEvent> read(Path log) throws Exception {
        List<EngineEvent> events = new ArrayList<>();
        try (InputStream in = Files.newInputStream(log)) {
            EventLogReader reader = new EventLogReader(in);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                events.add(entry.event());
            }
        }
        return events;
    }
}
