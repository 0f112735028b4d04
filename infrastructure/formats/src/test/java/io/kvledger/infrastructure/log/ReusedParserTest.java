package io.kvledger.infrastructure.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.infrastructure.json.EventJson;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The streaming path reads line after line with one parser: each line must still be read exactly as a parser of
 * that line's bytes alone reads it (a new {@link StreamedLines} for every line, which is how lines were read before),
 * whatever the lines before it were: taken, declined, damaged, cut, or longer than the parser's buffer. The lines
 * lie one after the other in one array, as the reader's buffer holds them, so a parser that read past a line's end
 * would see the next line's bytes.
 */
class ReusedParserTest {

    private static final int LOGS = 600;
    private static final String OK = "{\"seq\": 5, \"type\": \"TokensComputed\", \"requestId\": \"req-3\", \"numComputedTokens\": 136}";

    @Test
    void everyLineOfManyDamagedLogsIsReadAsAParserOfItsBytesAloneReadsIt() {
        Counts counts = new Counts();
        for (int seed = 0; seed < LOGS; seed++) {
            Random random = new Random(seed);
            List<String> lines = damaged(StreamedLinesFuzzTest.validLines(), random, StreamedLinesFuzzTest.VALUES);
            assertReadAsAlone(lines, null, "seed " + seed, counts);
        }
        counts.assertBothPathsTaken();
    }

    @Test
    void everyLineOfManyDamagedGroupedLogsIsReadAsAParserOfItsBytesAloneReadsIt() {
        Counts counts = new Counts();
        for (int seed = 0; seed < LOGS; seed++) {
            Random random = new Random(seed);
            List<KvCacheGroup> groups = GroupedStreamedLinesTest.groups(random);
            List<EngineEvent> events = GroupedStreamedLinesTest.log(random, groups);
            List<String> valid = IntStream.range(0, events.size()).mapToObj(i -> EventJson.toLine(i + 1, events.get(i))).toList();
            assertReadAsAlone(damaged(valid, random, StreamedLinesFuzzTest.GROUPED_VALUES), groups, "grouped seed " + seed, counts);
        }
        counts.assertBothPathsTaken();
    }

    @Test
    void aLineIsNeverReadTogetherWithTheLinesAroundIt() {
        String cut = OK.substring(0, OK.length() - 1);
        String cutInItsLastNumber = OK.substring(0, OK.length() - 3);
        List<String> lines = List.of(OK, cut, "}", OK, cutInItsLastNumber, "36}", OK, OK + " " + OK, OK, OK + ", \"x\": 1}", OK,
                OK + " \t\r ", OK, OK + " x", OK, "{" + OK.substring(1, 40), OK.substring(40), OK, OK.replace("}", ""),
                "} " + OK, OK);
        List<LogEntry> read = assertReadAsAlone(lines, null, "lines", new Counts());
        for (int i = 0; i < lines.size(); i++) {
            boolean whole = lines.get(i).equals(OK) || lines.get(i).equals(OK + " \t\r ");
            assertEquals(whole, read.get(i) != null, lines.get(i));
        }
    }

    @Test
    void linesLongerThanTheParsersBufferAreReadWholeAndCutOnesAreDeclinedAnywhere() {
        // A prompt of 3000 tokens: about 20 KB, more than two of the parser's 8000-byte buffers.
        List<Integer> tokens = new Random(7).ints(3000, 0, 50_000).boxed().toList();
        String longLine = EventJson.toLine(5, new RequestRegistered("req-long", tokens.size(), tokens));
        assertTrue(longLine.length() > 16_000, "a long line: " + longLine.length());
        List<String> lines = new ArrayList<>();
        for (int cutAt : new int[] {7_999, 8_000, 8_001, 12_345, 16_000, longLine.length() - 1, longLine.length() - 2}) {
            lines.add(longLine);
            lines.add(OK);
            lines.add(longLine.substring(0, cutAt));
            lines.add(OK);
            lines.add(longLine.substring(0, cutAt));
            lines.add(longLine.substring(cutAt));
        }
        lines.add(longLine);
        List<LogEntry> read = assertReadAsAlone(lines, null, "long lines", new Counts());
        for (int i = 0; i < lines.size(); i++) {
            boolean whole = lines.get(i).equals(longLine) || lines.get(i).equals(OK);
            assertEquals(whole, read.get(i) != null, "line " + (i + 1) + " of " + lines.get(i).length() + " bytes");
        }
    }

    /**
     * A byte order mark is the one thing only a parser of the line alone skips (it looks for an encoding at its
     * start): the reused parser declines such a line, and the tree path reads it, into the same entry.
     */
    @Test
    void aLineStartingWithAByteOrderMarkIsLeftToTheTreePathAndReadTheSame() throws Exception {
        String bom = "\ufeff";
        String log = EventJson.toLine(1, EveryEvent.list().get(0)) + "\n"
                + OK.replace("\"seq\": 5", "\"seq\": 2") + "\n" + bom + OK.replace("\"seq\": 5", "\"seq\": 3") + "\n"
                + OK.replace("\"seq\": 5", "\"seq\": 4") + "\n";
        byte[] bytes = log.getBytes(StandardCharsets.UTF_8);
        List<LogEntry> streamed = StreamedLinesTest.readAll(new EventLogReader(new ByteArrayInputStream(bytes)));
        List<LogEntry> tree = StreamedLinesTest.readAll(EventLogReader.treeOnly(new ByteArrayInputStream(bytes)));
        assertEquals(tree, streamed);
        assertEquals(4, streamed.size());

        StreamedLines reused = new StreamedLines();
        byte[] ok = OK.getBytes(StandardCharsets.UTF_8);
        byte[] marked = (bom + OK).getBytes(StandardCharsets.UTF_8);
        assertNotNull(reused.read(1, ok, 0, ok.length, 1));
        assertNull(reused.read(2, marked, 0, marked.length, 1));
        assertNotNull(reused.read(3, ok, 0, ok.length, 1));
    }

    /** The lines, one after another in one array, read by one reader and each by a reader of its own: the same entries. */
    private static List<LogEntry> assertReadAsAlone(List<String> lines, List<KvCacheGroup> groups, String what, Counts counts) {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        int[] starts = new int[lines.size() + 1];
        for (int i = 0; i < lines.size(); i++) {
            starts[i] = file.size();
            file.writeBytes(lines.get(i).getBytes(StandardCharsets.UTF_8));
            file.write('\n');
        }
        starts[lines.size()] = file.size();
        byte[] bytes = file.toByteArray();
        StreamedLines reused = new StreamedLines();
        reused.configure(groups);
        List<LogEntry> read = new ArrayList<>();
        boolean takenBefore = false;
        for (int i = 0; i < lines.size(); i++) {
            int length = starts[i + 1] - 1 - starts[i];
            StreamedLines alone = new StreamedLines();
            alone.configure(groups);
            LogEntry expected = alone.read(i + 1, bytes, starts[i], length, 1);
            LogEntry actual = reused.read(i + 1, bytes, starts[i], length, 1);
            assertEquals(expected, actual, what + ", line " + (i + 1) + ": " + lines.get(i));
            read.add(actual);
            counts.count(actual != null, takenBefore);
            takenBefore = actual != null;
        }
        return read;
    }

    /** The lines with about a third edited, a few cut in two (two lines), a few with a character put in anywhere. */
    private static List<String> damaged(List<String> valid, Random random, String[] values) {
        List<String> lines = new ArrayList<>();
        for (String line : valid) {
            int what = random.nextInt(12);
            if (what < 4) {
                lines.add(StreamedLinesFuzzTest.edit(line, random, values));
            } else if (what == 4 && line.length() > 1) {
                int at = 1 + random.nextInt(line.length() - 1);
                lines.add(line.substring(0, at));
                lines.add(line.substring(at));
            } else if (what == 5) {
                int at = random.nextInt(line.length());
                lines.add(line.substring(0, at) + new String[] {"\u00ff", "\u0000", "\u20ac", "\t"}[random.nextInt(4)] + line.substring(at));
            } else {
                lines.add(line);
            }
        }
        return lines;
    }

    /** How many lines were taken and declined, and taken after a taken line (the parser went on) or after a declined one. */
    private static final class Counts {
        int taken;
        int declined;
        int takenAfterTaken;
        int takenAfterDeclined;

        void count(boolean isTaken, boolean takenBefore) {
            if (!isTaken) {
                declined++;
            } else if (takenBefore) {
                takenAfterTaken++;
            } else {
                takenAfterDeclined++;
            }
            taken += isTaken ? 1 : 0;
        }

        void assertBothPathsTaken() {
            String counted = taken + " taken (" + takenAfterTaken + " after a taken line, " + takenAfterDeclined
                    + " after a declined one), " + declined + " declined";
            assertTrue(takenAfterTaken > 1000 && takenAfterDeclined > 1000 && declined > 1000, counted);
        }
    }
}
