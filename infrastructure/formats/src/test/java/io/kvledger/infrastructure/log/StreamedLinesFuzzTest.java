package io.kvledger.infrastructure.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.json.EventJson;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Seeded mutations of valid logs (fields dropped, duplicated, retyped, reordered or added; lines cut,
 * padded, followed by more; seqs broken; big and fractional numbers; escapes, lone surrogates, invalid
 * UTF-8): the reader with its streaming path and the tree path alone agree on every file, entry by entry
 * (events, positions, trees) and on how it ends (the same message at the same line, or the end).
 */
class StreamedLinesFuzzTest {

    private static final int FILES = 3000;
    static final String[] VALUES = {"0", "-0", "-1", "7", "1.0", "1e2", "1E+400", "2147483647", "2147483648",
            "-2147483649", "9223372036854775807", "9223372036854775808", "00", "null", "true", "false", "\"x\"", "\"\"",
            "\"\\ud800\"", "\"\\udc00x\"", "\"\\uD83D\\uDE00\"", "\"r\\u0065q\"", "\"\u00e9\"", "[]", "[1]", "[1.5]",
            "[2147483648]", "[\"k\"]", "[null]", "[[1]]", "{}", "{\"a\": 1}", "\"FENCE\"", "\"DELAY_FREE\"", "\"LENGTH\"",
            "\"NOPE\"", "\"INVALID_ARGUMENT\""};
    /** Also the shapes of a grouped log's per-group fields (contract 7.2), right and wrong. */
    static final String[] GROUPED_VALUES = concat(VALUES, "[[1], [2]]", "[[], []]", "[[], [], []]", "[[null], [1]]",
            "[[1], [null]]", "[[1, null], [], [2]]", "[null, 1]", "[[\"k\"], []]", "[[1], 2]", "[[1], [2.5]]", "[[[1]], []]",
            "[[2147483648], []]");
    private static final String[] NAMES = {"seq", "type", "requestId", "jobId", "blockIds", "keys", "reason", "code",
            "step", "envelope", "hits", "typ\\u0065", "s\\u0065q"};

    @Test
    void streamingAndTreePathsAgreeOnEveryMutatedLog() throws Exception {
        List<String> valid = validLines();
        assertBothPathsAgree(seed -> mutated(valid, new Random(seed), VALUES));
    }

    @Test
    void streamingAndTreePathsAgreeOnEveryMutatedGroupedLog() throws Exception {
        assertBothPathsAgree(seed -> {
            Random random = new Random(seed);
            List<EngineEvent> events = GroupedStreamedLinesTest.log(random, GroupedStreamedLinesTest.groups(random));
            List<String> valid = new ArrayList<>();
            for (int i = 0; i < events.size(); i++) {
                valid.add(EventJson.toLine(i + 1, events.get(i)));
            }
            return mutated(valid, random, GROUPED_VALUES);
        });
    }

    /** Over {@value #FILES} seeds: both readers agree on each file, and the mutations reach both sides (many fail, many are read to their end). */
    private static void assertBothPathsAgree(java.util.function.IntFunction<byte[]> files) {
        int failedFiles = 0;
        for (int seed = 0; seed < FILES; seed++) {
            byte[] file = files.apply(seed);
            Outcome streamed = outcome(new EventLogReader(new ByteArrayInputStream(file)));
            Outcome tree = outcome(EventLogReader.treeOnly(new ByteArrayInputStream(file)));
            assertEquals(tree, streamed, "seed " + seed + ": " + new String(file, StandardCharsets.UTF_8));
            if (tree.failure() != null) {
                failedFiles++;
            }
        }
        assertTrue(failedFiles > FILES / 4 && failedFiles < FILES - FILES / 10, "failed files: " + failedFiles);
    }

    private static String[] concat(String[] values, String... more) {
        String[] all = java.util.Arrays.copyOf(values, values.length + more.length);
        System.arraycopy(more, 0, all, values.length, more.length);
        return all;
    }

    private record Outcome(List<LogEntry> entries, String failure) {
    }

    private static Outcome outcome(EventLogReader reader) {
        List<LogEntry> entries = new ArrayList<>();
        try {
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                entries.add(entry);
            }
            return new Outcome(entries, null);
        } catch (Exception e) {
            return new Outcome(entries, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }

    static List<String> validLines() {
        List<EngineEvent> events = EveryEvent.list();
        List<String> lines = new ArrayList<>();
        long seq = 1;
        lines.add(EventJson.toLine(seq++, events.get(0)));
        for (int round = 0; round < 2; round++) {
            for (EngineEvent event : events.subList(1, events.size())) {
                lines.add(EventJson.toLine(seq++, event));
            }
        }
        return lines;
    }

    private static byte[] mutated(List<String> valid, Random random, String[] values) {
        List<String> lines = new ArrayList<>(valid);
        int edits = 1 + random.nextInt(3);
        for (int i = 0; i < edits; i++) {
            int at = random.nextInt(12) == 0 ? 0 : 1 + random.nextInt(lines.size() - 1);
            lines.set(at, edit(lines.get(at), random, values));
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (String line : lines) {
            byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
            if (random.nextInt(200) == 0) {
                bytes = withByte(bytes, random, new byte[] {(byte) 0xFF, (byte) 0xC0, (byte) 0x80, (byte) 0xED}[random.nextInt(4)]);
            }
            out.writeBytes(bytes);
            out.write('\n');
        }
        byte[] file = out.toByteArray();
        if (random.nextInt(10) == 0) {
            file = java.util.Arrays.copyOf(file, random.nextInt(file.length));
        }
        return file;
    }

    private static byte[] withByte(byte[] bytes, Random random, byte b) {
        int at = random.nextInt(bytes.length + 1);
        byte[] copy = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, copy, 0, at);
        copy[at] = b;
        System.arraycopy(bytes, at, copy, at + 1, bytes.length - at);
        return copy;
    }

    /** One edit of a line of our writer's form: {"seq": N, "type": "T", "a": V, ...}. */
    static String edit(String line, Random random, String[] values) {
        List<int[]> fields = WriterLayoutFields.fieldSpans(line);
        if (fields.isEmpty()) {
            return line.isEmpty() ? "{}" : line.substring(0, random.nextInt(line.length())); // a line edited past recognition
        }
        int[] field = fields.get(random.nextInt(fields.size()));
        String text = line.substring(field[0], field[2]);
        String value = line.substring(field[1], field[2]);
        return switch (random.nextInt(16)) {
            case 0 -> remove(line, field);
            case 1 -> line.substring(0, line.length() - 1) + ", " + text + "}";
            case 2, 3, 4 -> line.substring(0, field[1]) + values[random.nextInt(values.length)] + line.substring(field[2]);
            case 5 -> line.substring(0, random.nextInt(line.length()));
            case 6 -> "{" + text + ", " + remove(line, field).substring(1).replaceFirst("^\\}$", "").replaceFirst("^, ", "");
            case 7 -> line.substring(0, line.length() - 1) + ", \"" + NAMES[random.nextInt(NAMES.length)] + "\": "
                    + values[random.nextInt(values.length)] + "}";
            case 8 -> line.replaceFirst("\"seq\": \\d+", "\"seq\": " + new String[] {"0", "1", "2", "-3", "1.0", "\"4\"",
                    "99999999999999999999", "null"}[random.nextInt(8)]);
            case 9 -> " \t" + line.replace(": ", " :\t ").replace(", ", " , ") + "  ";
            case 10 -> line + new String[] {" {}", " x", ",", "]", " 1", "\r", "\r\n"}[random.nextInt(7)];
            case 11 -> line.substring(0, field[1]) + "\r" + line.substring(field[1]);
            case 12 -> WriterLayoutFields.escapeALetter(line, random);
            case 13 -> line.replace("\"r\"", "\"" + new String[] {"\\ud800", "r\\u0000", "\\u00e9", "\\uD83D\\uDE00"}[random.nextInt(4)] + "\"");
            case 14 -> line.substring(0, field[1]) + "[" + value + "]" + line.substring(field[2]);
            default -> line.substring(0, field[1]) + value.replace("1", "1" + "0".repeat(random.nextInt(30))) + line.substring(field[2]);
        };
    }

    private static String remove(String line, int[] field) {
        int start = field[0];
        int end = field[2];
        if (line.startsWith(", ", end)) {
            end += 2;
        } else if (start >= 2 && line.startsWith(", ", start - 2)) {
            start -= 2;
        }
        return line.substring(0, start) + line.substring(end);
    }
}
