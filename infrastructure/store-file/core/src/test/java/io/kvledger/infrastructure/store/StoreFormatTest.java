package io.kvledger.infrastructure.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's line format 2 (an envelope on the first line of each Axon message only) and stores
 * written in format 1 (an envelope on every line, with {@code part}), which are still read.
 */
class StoreFormatTest {

    /** Written by the store before format 2: {@code kvledger run 07_preemption_flush.jsonl --store}, twice. */
    private static final String FORMAT_1_STORE = "/stores/v1-preemption-twice.jsonl";

    @TempDir
    Path dir;

    @Test
    void aStepsMessageCarriesOneEnvelopeOnItsFirstLine() throws Exception {
        Path file = dir.resolve("store.jsonl");
        List<EngineEvent> second = step(1, 40);
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER)) {
            store.appendEvents(message(0, List.of(EngineConfigured.of(EngineConfig.DEFAULTS))));
            store.appendEvents(message(1, second));
        }

        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertEquals(41, lines.size());
        for (int i = 0; i < lines.size(); i++) {
            JsonNode line = EventJson.mapper().readTree(lines.get(i));
            assertEquals(i == 0 || i == 1, line.has("envelope"), "line " + (i + 1));
            assertFalse(line.path("envelope").has("part"));
        }
        assertEquals(39, EventJson.mapper().readTree(lines.get(1)).at("/envelope/batchRemaining").asInt(),
                "the step's first line announces the rest of the append");

        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER)) {
            assertEquals(RecoveryReport.CLEAN, store.recoveryReport());
            List<? extends DomainEventMessage<?>> messages = store.readEvents("engine").asStream().toList();
            assertEquals(2, messages.size());
            assertEquals(new StepEvents(second), messages.get(1).getPayload());
            assertEquals(41, store.readEvents(null, false).reduce((a, b) -> b).orElseThrow()
                    .trackingToken().position().getAsLong(), "the tracking token of a message is its last line");
        }
    }

    @Test
    void aStepCutShortAtALineBoundaryIsCutWhole() throws Exception {
        Path file = dir.resolve("store.jsonl");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER)) {
            store.appendEvents(message(0, List.of(EngineConfigured.of(EngineConfig.DEFAULTS))));
            store.appendEvents(message(1, step(1, 10)));
        }
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        Files.writeString(file, String.join("\n", lines.subList(0, 7)) + "\n"); // 6 of the step's 10 lines

        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER)) {
            RecoveryReport report = store.recoveryReport();
            assertEquals(2, report.firstLine());
            assertEquals(6, report.linesCut());
            assertEquals(1, store.lastSeq());
        }
    }

    @Test
    void aLineWithoutEnvelopeAfterAWholeAppendIsCorruption() throws Exception {
        Path file = dir.resolve("store.jsonl");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER)) {
            store.appendEvents(message(0, List.of(EngineConfigured.of(EngineConfig.DEFAULTS))));
            store.appendEvents(message(1, step(1, 3)));
        }
        Files.writeString(file, Files.readString(file) + EventJson.toLine(5, new TokensComputed("x", 1)) + "\n"
                + EventJson.toLine(6, new TokensComputed("x", 2)) + "\n");

        StoreCorruptedException e = assertThrows(StoreCorruptedException.class,
                () -> JsonlEventStorageEngine.open(file, FsyncPolicy.NEVER));
        assertTrue(e.getMessage().contains("line 5") && e.getMessage().contains("no envelope"), e.getMessage());
    }

    @Test
    void aFormat1StoreIsReadAsItIsAndContinuedInFormat2() throws Exception {
        Path file = dir.resolve("old.jsonl");
        try (InputStream in = StoreFormatTest.class.getResourceAsStream(FORMAT_1_STORE)) {
            Files.copy(in, file);
        }
        List<LogEntry> oldLines = JsonlEventStorageEngineTest.readLog(file);
        assertEquals(32, oldLines.size());
        List<EngineEvent> oldEvents = oldLines.stream().map(LogEntry::event).toList();
        long oldMessages = oldLines.stream().filter(StoreLines::startsMessage).count();
        assertTrue(oldMessages < oldLines.size(), "the fixture has steps of several lines");

        List<EngineEvent> added = step(1000, 5);
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS)) {
            assertEquals(RecoveryReport.CLEAN, store.recoveryReport());
            assertEquals(32, store.lastSeq());
            List<? extends DomainEventMessage<?>> messages = store.readEvents("engine").asStream().toList();
            assertEquals(oldMessages, messages.size());
            assertEquals(oldEvents, flatten(messages));
            store.appendEvents(message(oldMessages, added));
        }

        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS)) {
            assertEquals(RecoveryReport.CLEAN, store.recoveryReport());
            List<EngineEvent> expected = new ArrayList<>(oldEvents);
            expected.addAll(added);
            assertEquals(expected, flatten(store.readEvents("engine").asStream().toList()));
        }
        List<LogEntry> log = JsonlEventStorageEngineTest.readLog(file);
        assertEquals(37, log.size(), "the whole file reads as one contract log");
        assertTrue(log.get(32).envelope() != null && log.get(33).envelope() == null, "the new step is format 2");
    }

    private static List<EngineEvent> flatten(List<? extends DomainEventMessage<?>> messages) {
        List<EngineEvent> events = new ArrayList<>();
        for (DomainEventMessage<?> message : messages) {
            events.addAll(((StepEvents) message.getPayload()).events());
        }
        return events;
    }

    private static DomainEventMessage<?> message(long sequenceNumber, List<EngineEvent> events) {
        return new GenericDomainEventMessage<>("EngineAggregate", "engine", sequenceNumber, new StepEvents(events));
    }

    /** {@code count} registrations of distinct requests, as one step. */
    private static List<EngineEvent> step(int first, int count) {
        List<EngineEvent> events = new ArrayList<>();
        for (int i = first; i < first + count; i++) {
            events.add(new RequestRegistered("r" + i, 2, List.of(i, 7)));
        }
        return events;
    }
}
