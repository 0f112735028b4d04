package io.kvledger.infrastructure.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.infrastructure.json.EventJson;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The streaming path reads every line it takes exactly as the tree path does (event, seq, type and the
 * line's tree), takes every line our writer writes but a configuration and a rejection naming its ids,
 * and leaves every line it is not sure of to the tree path.
 */
class StreamedLinesTest {

    @Test
    void everyTypeEveryChoiceAndEveryRejectionCodeReadsAsTheTreePathReadsIt() throws Exception {
        List<EngineEvent> events = EveryEvent.list();
        StringBuilder log = new StringBuilder();
        for (int i = 0; i < events.size(); i++) {
            log.append(EventJson.toLine(i + 1, events.get(i))).append('\n');
        }
        byte[] bytes = log.toString().getBytes(StandardCharsets.UTF_8);

        List<LogEntry> streamed = readAll(new EventLogReader(new ByteArrayInputStream(bytes)));
        List<LogEntry> tree = readAll(EventLogReader.treeOnly(new ByteArrayInputStream(bytes)));
        assertEquals(tree, streamed); // equal events, positions and trees (raw() is made from the bytes)
        // Without groups a WindowBlocksFreed is an unknown type (contract 7.8): both paths skip it.
        assertEquals(events.stream().map(event -> event instanceof WindowBlocksFreed ? null : event).toList(),
                streamed.stream().map(LogEntry::event).toList());

        int taken = 0;
        for (int i = 1; i < events.size(); i++) {
            EngineEvent event = events.get(i);
            byte[] line = EventJson.toLine(i + 1, event).getBytes(StandardCharsets.UTF_8);
            LogEntry entry = new StreamedLines().read(i + 1, line, 0, line.length, i);
            boolean namesIds = event instanceof CommandRejected rejected && (rejected.requestId() != null || rejected.jobId() != null);
            if (event instanceof EngineConfigured || namesIds) {
                assertNull(entry, "left to the tree path: " + event);
            } else {
                assertNotNull(entry, "taken by the streaming path: " + event);
                assertEquals(event, entry.event());
                taken++;
            }
        }
        assertTrue(taken >= events.size() / 2, "most lines are the streaming path's: " + taken + " of " + events.size());
    }

    @Test
    void linesItIsNotSureOfAreLeftToTheTreePath() {
        String ok = "{\"seq\": 5, \"type\": \"BlocksAllocated\", \"requestId\": \"r\", \"blockIds\": [1, 2], \"externalTokens\": 0}";
        assertNotNull(read(ok, 4));
        for (String line : List.of(
                ok.replace("\"seq\": 5, ", "") + "",                                           // no seq
                "{\"type\": \"BlocksAllocated\", \"seq\": 5, \"requestId\": \"r\", \"blockIds\": [], \"externalTokens\": 0}",
                ok.replace("\"externalTokens\": 0", "\"externalTokens\": 0, \"step\": 3"),    // an extra field
                ok.replace("\"externalTokens\": 0", "\"externalTokens\": 0, \"requestId\": \"r\""), // a duplicate
                ok.replace(", \"externalTokens\": 0", ""),                                    // a missing field
                ok.replace("\"externalTokens\": 0", "\"externalTokens\": 0.0"),
                ok.replace("\"externalTokens\": 0", "\"externalTokens\": 2147483648"),
                ok.replace("[1, 2]", "[1, 2147483648]"),
                ok.replace("[1, 2]", "[1, null]"),
                ok.replace("\"r\"", "\"\\ud800\""),                                          // a lone surrogate
                ok.replace("\"r\"", "7"),
                ok.replace("BlocksAllocated", "FutureEvent"),
                ok + " {}",
                ok.substring(0, ok.length() - 1),
                ok.replace("\"externalTokens\": 0", "\"externalTokens\": 0, \"envelope\": {}"))) {
            assertNull(read(line, 4), line);
        }
        assertNull(read(ok, 5), "a seq that does not increase");
        assertNull(read(ok.replace("\"seq\": 5", "\"seq\": 99999999999999999999"), 4), "a seq past a long");
    }

    private static LogEntry read(String line, long lastSeq) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        return new StreamedLines().read(9, bytes, 0, bytes.length, lastSeq);
    }

    static List<LogEntry> readAll(EventLogReader reader) throws Exception {
        List<LogEntry> entries = new ArrayList<>();
        for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
            entries.add(entry);
        }
        return entries;
    }
}
