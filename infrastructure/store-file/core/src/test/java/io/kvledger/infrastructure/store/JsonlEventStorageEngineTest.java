package io.kvledger.infrastructure.store;

import static io.kvledger.testkit.store.EventStorageEngineContract.assertSameEvents;
import static io.kvledger.testkit.store.EventStorageEngineContract.event;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.EventLogWriter;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.BufferedInputStream;
import java.io.InputStream;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.GenericEventMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the file store does beyond the storage-engine contract: its file, reopening, locking, refusals. */
class JsonlEventStorageEngineTest {

    @TempDir
    Path dir;

    @Test
    void eachLineIsTheContractsLineWithAnEnvelope() throws Exception {
        Path file = dir.resolve("store.jsonl");
        DomainEventMessage<?> first = event("engine", 0);
        DomainEventMessage<?> second = event("engine", 1);
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS)) {
            store.appendEvents(first, second);
        }

        List<String> lines = Files.readAllLines(file);
        assertEquals(2, lines.size());
        assertTrue(lines.get(0).startsWith("{\"seq\": 1, \"type\": \"EngineConfigured\", \"gpuBlockSize\": "), lines.get(0));
        JsonNode line = EventJson.mapper().readTree(lines.get(1));
        assertEquals(2, line.get("seq").asInt());
        assertEquals("RequestRegistered", line.get("type").asText());
        assertEquals("engine/1", line.get("requestId").asText(), "the event's fields are at the top level");
        JsonNode envelope = line.get("envelope");
        assertEquals("engine", envelope.get("aggregateId").asText());
        assertEquals(1, envelope.get("sequenceNumber").asLong());
        assertEquals(second.getIdentifier(), envelope.get("eventId").asText());
        assertEquals(second.getTimestamp().toString(), envelope.get("timestamp").asText());
        assertEquals("1", envelope.get("revision").asText());
        assertFalse(envelope.has("batchRemaining"), "the last line of an append is not marked");
        assertEquals(1, EventJson.mapper().readTree(lines.get(0)).at("/envelope/batchRemaining").asInt(),
                "the first line of a two-line append announces one more");

        List<LogEntry> read = readLog(file);
        assertEquals(List.of(first.getPayload(), second.getPayload()), read.stream().map(LogEntry::event).toList());
    }

    @Test
    void eventsSurviveReopeningAndAppendsContinueTheSeq() {
        Path file = dir.resolve("store.jsonl");
        List<DomainEventMessage<?>> events = List.of(event("a", 0), event("a", 1), event("b", 0));
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER)) {
            store.appendEvents(events.subList(0, 2));
            store.appendEvents(events.subList(2, 3));
        }

        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER)) {
            assertEquals(RecoveryReport.CLEAN, store.recoveryReport());
            assertEquals(3, store.lastSeq());
            assertSameEvents(events.subList(0, 2), store.readEvents("a").asStream().toList());
            assertEquals(Optional.of(0L), store.lastSequenceNumberFor("b"));
            store.appendEvents(event("a", 2));
            assertEquals(4, store.lastSeq());
            assertEquals(4, store.readEvents(null, false).reduce((x, y) -> y).orElseThrow().trackingToken().position().getAsLong());
        }
    }

    @Test
    void aSecondStoreOnTheSameFileIsRefusedUntilTheFirstCloses() {
        Path file = dir.resolve("store.jsonl");
        JsonlEventStorageEngine first = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS);
        first.appendEvents(event("a", 0));

        StoreLockedException e = assertThrows(StoreLockedException.class, () -> JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS));
        assertTrue(e.getMessage().contains("locked"), e.getMessage());

        first.close();
        try (JsonlEventStorageEngine second = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS)) {
            assertEquals(1, second.lastSeq());
        }
    }

    @Test
    void aStoreInADirectoryThatDoesNotExistYetIsCreatedWithIt() throws Exception {
        Path nested = dir.resolve("runs/today/store.jsonl");

        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(nested, FsyncPolicy.ALWAYS)) {
            store.appendEvents(List.of(event("e", 0)));
        }

        assertEquals(1, Files.readAllLines(nested).size());
    }

    @Test
    void onlyAnAggregatesEngineEventsAreStoredAndTheFirstConfiguresTheEngine() throws Exception {
        Path file = dir.resolve("store.jsonl");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS)) {
            assertThrows(IllegalArgumentException.class, () -> store.appendEvents(
                    GenericEventMessage.asEventMessage(EngineConfigured.of(EngineConfig.DEFAULTS))));
            assertThrows(IllegalArgumentException.class, () -> store.appendEvents(
                    new GenericDomainEventMessage<>("T", "a", 0, "not an engine event")));
            assertThrows(IllegalArgumentException.class, () -> store.appendEvents(
                    new GenericDomainEventMessage<>("T", "a", 0, new RequestAborted("r"))));
            assertEquals(0, store.lastSeq());
        }
        assertEquals(0, Files.size(file), "nothing of a refused append is written");
    }

    @Test
    void aPlainEventLogIsNotOpenedAsAStoreAndIsLeftAsItWas() throws Exception {
        Path file = dir.resolve("captured.jsonl");
        try (Writer out = Files.newBufferedWriter(file)) {
            EventLogWriter writer = new EventLogWriter(out);
            writer.write(EngineConfigured.of(EngineConfig.DEFAULTS));
            writer.write(new RequestAborted("r"));
        }
        byte[] before = Files.readAllBytes(file);

        StoreCorruptedException e = assertThrows(StoreCorruptedException.class, () -> JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS));

        assertEquals(1, e.line());
        assertTrue(e.getMessage().contains("line 1: no envelope"), e.getMessage());
        assertTrue(Arrays.equals(before, Files.readAllBytes(file)));
    }

    @Test
    void aLineOfATypeThisVersionDoesNotKnowIsCarriedAsItsJson() throws Exception {
        Path file = dir.resolve("store.jsonl");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS)) {
            store.appendEvents(event("a", 0));
        }
        // Written by a later version: a whole step, with its checksum.
        Files.writeString(file, StepSeals.seal("{\"seq\": 2, \"type\": \"SomethingNew\", \"x\": 1, \"envelope\": {\"aggregateId\": \"a\","
                + " \"sequenceNumber\": 1, \"eventId\": \"e2\", \"timestamp\": \"2026-11-30T00:00:00Z\", \"revision\": \"1\"}}") + "\n",
                StandardOpenOption.APPEND);

        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS)) {
            List<DomainEventMessage<?>> read = new ArrayList<>(store.readEvents("a").asStream().toList());
            ObjectNode payload = assertInstanceOf(ObjectNode.class, read.get(1).getPayload());
            assertEquals(1, payload.get("x").asInt());
            assertEquals("e2", read.get(1).getIdentifier());
            store.appendEvents(event("a", 2));
            assertEquals(3, store.lastSeq());
        }
    }

    @Test
    void fsyncPoliciesAreParsedFromTheCommandLinesSpelling() {
        assertEquals(FsyncPolicy.ALWAYS, FsyncPolicy.parse("always"));
        assertEquals(FsyncPolicy.NEVER, FsyncPolicy.parse("never"));
        assertEquals(FsyncPolicy.interval(Duration.ofMillis(250)), FsyncPolicy.parse("interval:250"));
        for (String bad : List.of("sometimes", "interval:", "interval:0", "interval:-5", "interval:x")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FsyncPolicy.parse(bad));
            assertTrue(e.getMessage().contains("always, never or interval:MS"), e.getMessage());
        }
    }

    @Test
    void anIntervalPolicyForcesOnceThePeriodHasPassedAndOnClose() {
        FsyncPolicy policy = FsyncPolicy.interval(Duration.ofMillis(100));
        long ms = 1_000_000;

        assertFalse(policy.forceAfterAppend(0, 99 * ms));
        assertTrue(policy.forceAfterAppend(0, 100 * ms));
        assertTrue(policy.forceOnClose());
        assertTrue(FsyncPolicy.ALWAYS.forceAfterAppend(0, 0));
        assertFalse(FsyncPolicy.NEVER.forceAfterAppend(0, Long.MAX_VALUE));
        assertFalse(FsyncPolicy.NEVER.forceOnClose());
    }

    static List<LogEntry> readLog(Path file) throws Exception {
        List<LogEntry> entries = new ArrayList<>();
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            EventLogReader reader = new EventLogReader(in);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                entries.add(entry);
            }
        }
        return entries;
    }
}
