package io.kvledger.infrastructure.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.infrastructure.json.EventJson;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The byte decoder takes every line the writers write (but a configuration and a rejection naming its ids) and
 * reads it into the event the tree path reads; every line not in that exact layout it leaves to the other readers,
 * so a whole log read with it is read as by the tree path alone, messages included.
 */
class ByteLinesTest {

    @Test
    void everyTypeEveryChoiceAndEveryRejectionCodeIsTakenAndReadAsTheTreePathReadsIt() throws Exception {
        List<EngineEvent> events = EveryEvent.list();
        ByteLines decoder = new ByteLines(new RecentStrings());
        int taken = 0;
        for (int i = 1; i < events.size(); i++) {
            EngineEvent event = events.get(i);
            String line = EventJson.toLine(i + 1, event);
            LogEntry entry = read(decoder, line, i);
            boolean namesIds = event instanceof CommandRejected rejected && (rejected.requestId() != null || rejected.jobId() != null);
            if (event instanceof EngineConfigured || namesIds) {
                assertNull(entry, "left to the other readers: " + line);
                continue;
            }
            assertNotNull(entry, "taken by the byte decoder: " + line);
            // Without groups the reader skips a WindowBlocksFreed whoever decoded it (contract 7.8): the tree path has no event.
            assertEquals(event instanceof WindowBlocksFreed ? Collections.singletonList(null) : List.of(entry.event()),
                    tree(events.get(0), line), line);
            assertEquals(event, entry.event());
            assertEquals(i + 1, entry.seq());
            assertEquals(EventJson.mapper().readTree(line), entry.raw());
            taken++;
        }
        assertTrue(taken > 20, "every type but the configuration is among them: " + taken);
    }

    @Test
    void optionalRequestControlsInTheWritersOrderAreTaken() throws Exception {
        ByteLines decoder = new ByteLines(new RecentStrings());
        for (RequestRegistered event : List.of(new RequestRegistered("r", 2, List.of(1, 2), 0, null, null),
                new RequestRegistered("r", 2, List.of(1, 2), null, 7, true),
                new RequestRegistered("r", 2, List.of(1, 2), 3, 4, false))) {
            String line = EventJson.toLine(2, event);
            LogEntry entry = read(decoder, line, 1);
            assertNotNull(entry, line);
            assertEquals(event, entry.event());
            assertEquals(tree(EveryEvent.list().get(0), line), List.of(entry.event()));
        }
    }

    @Test
    void groupedLogsOfEveryShapeAreTakenAndReadAsTheTreePathReadsThem() throws Exception {
        int perGroup = 0;
        for (int seed = 0; seed < 200; seed++) {
            Random random = new Random(seed);
            List<KvCacheGroup> groups = GroupedStreamedLinesTest.groups(random);
            List<EngineEvent> events = GroupedStreamedLinesTest.log(random, groups);
            ByteLines decoder = new ByteLines(new RecentStrings());
            decoder.configure(groups);
            for (int i = 1; i < events.size(); i++) {
                String line = EventJson.toLine(i + 1, events.get(i));
                LogEntry entry = read(decoder, line, i);
                if (events.get(i) instanceof CommandRejected rejected && (rejected.requestId() != null || rejected.jobId() != null)) {
                    continue;
                }
                if (!isPrintableAscii(line)) {
                    assertTrue(entry == null || entry.event().equals(events.get(i)), line); // an escape or a non-ASCII string may be left
                    continue;
                }
                assertNotNull(entry, "seed " + seed + ": " + line);
                assertEquals(events.get(i), entry.event(), line);
                if (line.contains("[[")) {
                    perGroup++;
                }
            }
        }
        assertTrue(perGroup > 1000, "lines with per-group lists: " + perGroup);
    }

    @Test
    void anIdReadAgainIsTheSameStringWhicheverReaderReadItFirst() {
        RecentStrings strings = new RecentStrings();
        ByteLines decoder = new ByteLines(strings);
        StreamedLines streamed = new StreamedLines(strings);
        byte[] first = "{\"seq\": 2, \"type\": \"RequestAborted\", \"requestId\": \"req-17\", \"step\": 1}".getBytes(StandardCharsets.UTF_8);
        LogEntry byParser = streamed.read(2, first, 0, first.length, 1);
        assertNull(byParser, "an extra field: the tree path's");
        byte[] plain = "{\"seq\": 3, \"type\": \"RequestAborted\", \"requestId\": \"req-17\"}".getBytes(StandardCharsets.UTF_8);
        LogEntry a = streamed.read(3, plain, 0, plain.length, 2);
        LogEntry b = decoder.read(3, plain, 0, plain.length, 2);
        assertSame(((io.kvledger.domain.event.RequestAborted) a.event()).requestId(),
                ((io.kvledger.domain.event.RequestAborted) b.event()).requestId());
    }

    @Test
    void linesNotInTheWritersLayoutAreLeftToTheOtherReaders() throws Exception {
        String ok = "{\"seq\": 5, \"type\": \"BlocksAllocated\", \"requestId\": \"r\", \"blockIds\": [1, 2], \"externalTokens\": 0}";
        ByteLines decoder = new ByteLines(new RecentStrings());
        assertNotNull(read(decoder, ok, 4));
        List<String> declined = List.of(
                ok.replace("\"seq\": 5, ", ""),
                "{\"type\": \"BlocksAllocated\", \"seq\": 5, \"requestId\": \"r\", \"blockIds\": [1, 2], \"externalTokens\": 0}",
                "{\"seq\": 5, \"type\": \"BlocksAllocated\", \"blockIds\": [1, 2], \"requestId\": \"r\", \"externalTokens\": 0}",
                ok.replace("\"externalTokens\": 0", "\"externalTokens\": 0, \"step\": 3"),      // an extra field
                ok.replace("\"externalTokens\": 0", "\"externalTokens\": 0, \"requestId\": \"r\""), // a duplicate
                ok.replace("\"externalTokens\": 0", "\"externalTokens\": 0, \"externalTokens\": 0"),
                ok.replace(", \"externalTokens\": 0", ""),                                      // a missing field
                ok.replace(": 0}", ": 0.0}"), ok.replace(": 0}", ": 0e0}"), ok.replace(": 0}", ": 00}"),
                ok.replace(": 0}", ": -0}"), ok.replace(": 0}", ": 01}"), ok.replace(": 0}", ": -}"), ok.replace(": 0}", ": +1}"),
                ok.replace(": 0}", ": 2147483648}"), ok.replace(": 0}", ": -2147483649}"),
                ok.replace(": 0}", ": 99999999999999999999}"), ok.replace(": 0}", ": null}"), ok.replace(": 0}", ": \"0\"}"),
                ok.replace("[1, 2]", "[1, 2147483648]"), ok.replace("[1, 2]", "[1, null]"), ok.replace("[1, 2]", "[1,2]"),
                ok.replace("[1, 2]", "[1, 2, ]"), ok.replace("[1, 2]", "[ 1, 2]"), ok.replace("[1, 2]", "[1, 2"),
                ok.replace("[1, 2]", "[1 , 2]"), ok.replace("[1, 2]", "[1, -0]"), ok.replace("[1, 2]", "null"),
                ok.replace("\"r\"", "\"\""), ok.replace("\"r\"", "\"\\u0072\""), ok.replace("\"r\"", "\"r\\n\""),
                ok.replace("\"r\"", "\"\\ud800\""), ok.replace("\"r\"", "\"\u00e9\""), ok.replace("\"r\"", "\"r\tx\""),
                ok.replace("\"r\"", "7"), ok.replace("\"r\"", "null"), ok.replace("\"r\"", "\"r"),
                ok.replace("BlocksAllocated", "FutureEvent"), ok.replace("BlocksAllocated", "BlocksAllocate\\u0064"),
                ok.replace("BlocksAllocated", "EngineConfigured"),
                ok.replace("\"requestId\"", "\"r\\u0065questId\""),
                ok.replace(", \"", ",  \""), ok.replace(": ", ":"), ok.replace(", ", ","), " " + ok, ok + " ", ok + "\r",
                ok + " {}", ok + "}", ok.substring(0, ok.length() - 1),
                ok.replace("\"externalTokens\": 0", "\"externalTokens\": 0, \"envelope\": {}"));
        for (String line : declined) {
            assertNull(read(decoder, line, 4), line);
        }
        assertNull(read(decoder, ok, 5), "a seq that does not increase");
        assertNull(read(decoder, ok.replace("\"seq\": 5", "\"seq\": 0"), -1), "seq 0");
        assertNull(read(decoder, ok.replace("\"seq\": 5", "\"seq\": -5"), -10), "a negative seq");
        assertNotNull(read(decoder, ok, 4), "taken again after declining");
        // Each declined line, in a log, reads as the tree path alone reads it: the same entry or the same message.
        String config = EventJson.toLine(1, EveryEvent.list().get(0));
        for (String line : declined) {
            String log = config + "\n" + line.replace("\"seq\": 5", "\"seq\": 2") + "\n";
            assertEquals(outcome(EventLogReader.treeOnly(stream(log))), outcome(new EventLogReader(stream(log))), line);
        }
    }

    @Test
    void booleansEnumsNullableIntsAndLongsAreReadFromTheirBytes() {
        ByteLines decoder = new ByteLines(new RecentStrings());
        String done = "{\"seq\": 9, \"type\": \"StoreJobCompleted\", \"jobId\": 123456789012345678, \"requestId\": \"r\", \"success\": true}";
        assertEquals(new io.kvledger.domain.event.StoreJobCompleted(123456789012345678L, "r", true), read(decoder, done, 8).event());
        assertEquals(new io.kvledger.domain.event.StoreJobCompleted(-3, "r", false),
                read(decoder, done.replace("123456789012345678", "-3").replace("true", "false"), 8).event());
        assertNull(read(decoder, done.replace("true", "tru"), 8));
        assertNull(read(decoder, done.replace("true", "truex"), 8));
        assertEquals(new io.kvledger.domain.event.StoreJobCompleted(Long.MAX_VALUE, "r", true),
                read(decoder, done.replace("123456789012345678", "9223372036854775807"), 8).event());
        assertEquals(new io.kvledger.domain.event.StoreJobCompleted(-Long.MAX_VALUE, "r", true),
                read(decoder, done.replace("123456789012345678", "-9223372036854775807"), 8).event());
        assertNull(read(decoder, done.replace("123456789012345678", "9223372036854775808"), 8), "past a long: Jackson's");
        assertNull(read(decoder, done.replace("123456789012345678", "-9223372036854775808"), 8), "-2^63: Jackson's");
        assertNull(read(decoder, done.replace("123456789012345678", "92233720368547758070"), 8));
        String finished = "{\"seq\": 9, \"type\": \"RequestFinished\", \"requestId\": \"r\", \"reason\": \"LENGTH\"}";
        assertNotNull(read(decoder, finished, 8));
        assertNull(read(decoder, finished.replace("LENGTH", "LENGTHS"), 8));
        assertNull(read(decoder, finished.replace("LENGTH", "LENGT"), 8));
        assertNull(read(decoder, finished.replace("LENGTH", "length"), 8));
    }

    private static boolean isPrintableAscii(String line) {
        return line.chars().allMatch(c -> c >= 0x20 && c < 0x7F && c != '\\');
    }

    private static LogEntry read(ByteLines decoder, String line, long lastSeq) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        // The line in the middle of a larger buffer, as the reader hands it over.
        byte[] buffer = new byte[bytes.length + 20];
        java.util.Arrays.fill(buffer, (byte) '}');
        System.arraycopy(bytes, 0, buffer, 7, bytes.length);
        return decoder.read(3, buffer, 7, bytes.length, lastSeq);
    }

    /** The events the tree path alone reads from a log of {@code config} and then {@code line}. */
    private static List<EngineEvent> tree(EngineEvent config, String line) throws Exception {
        long seq = EventJson.mapper().readTree(line).get("seq").longValue();
        String log = EventJson.toLine(seq - 1, config) + "\n" + line + "\n";
        List<LogEntry> entries = StreamedLinesTest.readAll(EventLogReader.treeOnly(stream(log)));
        return entries.subList(1, entries.size()).stream().map(LogEntry::event).toList();
    }

    private static ByteArrayInputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String outcome(EventLogReader reader) {
        try {
            return StreamedLinesTest.readAll(reader).toString();
        } catch (Exception e) {
            return e.getClass().getSimpleName() + ": " + e.getMessage();
        }
    }
}
