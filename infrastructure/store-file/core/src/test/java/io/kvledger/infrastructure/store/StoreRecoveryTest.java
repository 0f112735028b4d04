package io.kvledger.infrastructure.store;

import static io.kvledger.testkit.store.EventStorageEngineContract.assertSameEvents;
import static io.kvledger.testkit.store.EventStorageEngineContract.event;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.infrastructure.log.LogEntry;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.eventhandling.DomainEventMessage;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opening a store file that a crash left behind, on real files: a torn end is cut and reported and
 * nothing before it is lost; anything else wrong refuses to open and leaves the file untouched.
 */
class StoreRecoveryTest {

    @TempDir
    Path dir;

    private Path file;
    /** Three appends: one line, one line, then one append of three lines (lines 3 to 5). */
    private final List<DomainEventMessage<?>> events = List.of(event("e", 0), event("e", 1), event("e", 2),
            event("e", 3), event("e", 4));
    private long wholeSize;

    @BeforeEach
    void writeStore() throws Exception {
        file = dir.resolve("store.jsonl");
        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS)) {
            store.appendEvents(events.get(0));
            store.appendEvents(events.get(1));
            store.appendEvents(events.subList(2, 5));
        }
        wholeSize = Files.size(file);
    }

    @Test
    void aPartialLastLineIsCutAndReportedAndAppendsContinue() throws Exception {
        String partial = "{\"seq\": 6, \"type\": \"RequestRegistered\", \"requestId\": \"e/5\", \"promptLen";
        append(partial);

        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS)) {
            RecoveryReport report = store.recoveryReport();
            assertTrue(report.recovered());
            assertEquals(partial.length(), report.bytesCut());
            assertEquals(6, report.firstLine());
            assertEquals(1, report.linesCut());
            assertTrue(report.reason().contains("no newline"), report.reason());
            assertEquals(wholeSize, Files.size(file), "the file is cut back to its last whole line");
            assertSameEvents(events, store.readEvents("e").asStream().toList());

            store.appendEvents(event("e", 5));
            assertEquals(6, store.lastSeq());
        }
        List<LogEntry> log = JsonlEventStorageEngineTest.readLog(file);
        assertEquals(List.of(1L, 2L, 3L, 4L, 5L, 6L), log.stream().map(LogEntry::seq).toList());
        assertEquals(event("e", 5).getPayload(), log.get(5).event());
    }

    @Test
    void aLastLineThatIsNotJsonIsCutAsATornWrite() throws Exception {
        append("\0".repeat(300) + "\n"); // what a power loss can leave: the size grew, the data never came

        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS)) {
            assertEquals(new RecoveryReport(301, 6, 1, "the last line is not a JSON object"), store.recoveryReport());
            assertEquals(5, store.lastSeq());
        }
        assertEquals(wholeSize, Files.size(file));
    }

    @Test
    void anAppendCutShortAtALineBoundaryIsCutWhole() throws Exception {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        long withoutLastLine = wholeSize - lines.get(4).getBytes(StandardCharsets.UTF_8).length - 1;
        truncate(withoutLastLine);

        try (JsonlEventStorageEngine store = JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS)) {
            RecoveryReport report = store.recoveryReport();
            assertEquals(3, report.firstLine(), "the append of lines 3 to 5 is cut from its start");
            assertEquals(2, report.linesCut());
            assertTrue(report.reason().contains("the append that began at line 3 wrote 2 of its lines"), report.reason());
            assertSameEvents(events.subList(0, 2), store.readEvents("e").asStream().toList());
            store.appendEvents(event("e", 2));
            assertEquals(3, store.lastSeq());
        }
    }

    @Test
    void aMalformedLineInTheMiddleRefusesToOpenNamingItAndChangesNothing() throws Exception {
        replaceLine(2, "{\"seq\": 2, \"type\": \"RequestRegistered\", \"requestId\": \"e/1\"}");
        assertRefused(2, "RequestRegistered.promptLength is missing");

        replaceLine(2, "not json at all");
        assertRefused(2, "not valid JSON");
    }

    @Test
    void aWellFormedLastLineThatBreaksTheSchemaIsCorruptionNotATear() throws Exception {
        append("{\"seq\": 6, \"type\": \"TokensComputed\", \"requestId\": \"e/1\"}\n");

        assertRefused(6, "TokensComputed.numComputedTokens is missing");
    }

    @Test
    void anAppendThatStopsShortInTheMiddleOfTheFileIsCorruption() throws Exception {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        replaceLine(3, lines.get(2).replace(", \"batchRemaining\": 2", ", \"batchRemaining\": 5"));

        assertRefused(4, "the append that began at line 3 announced 5 more line(s)");
    }

    @Test
    void aSequenceNumberOutOfOrderIsCorruption() throws Exception {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        replaceLine(2, StepSeals.seal(lines.get(1).replace("\"sequenceNumber\": 1", "\"sequenceNumber\": 7")));

        assertRefused(2, "aggregate e has sequence number 7 here, expected 1");
    }

    private void assertRefused(long line, String reason) throws Exception {
        byte[] before = Files.readAllBytes(file);

        StoreCorruptedException e = assertThrows(StoreCorruptedException.class, () -> JsonlEventStorageEngine.open(file, FsyncPolicy.ALWAYS));

        assertEquals(line, e.line());
        assertTrue(e.getMessage().contains(file + ": line " + line + ": " + reason), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(file), "a refused file is left as it was");
        // The lock went with the failed open: a repaired file can be opened by anyone.
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.tryLock().release();
        }
    }

    private void append(String text) throws Exception {
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
    }

    private void truncate(long size) throws Exception {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(size);
        }
    }

    private void replaceLine(int number, String text) throws Exception {
        List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
        lines.set(number - 1, text);
        Files.write(file, lines, StandardCharsets.UTF_8);
    }
}
