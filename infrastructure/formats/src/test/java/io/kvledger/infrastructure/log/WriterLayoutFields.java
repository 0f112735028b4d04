package io.kvledger.infrastructure.log;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * The fields of a line in the writers' layout ({@code {"seq": N, "type": "T", "f": V, ...}}), found by their bytes,
 * for the tests that mutate such lines (this module's {@code StreamedLinesFuzzTest}, the simulation module's
 * {@code ByteLinesPropertyTest} through this module's test jar).
 */
final class WriterLayoutFields {

    private WriterLayoutFields() {
    }

    /**
     * [name start, value start, value end] of each top-level field, up to the first that is not in the writers'
     * spacing ({@code "name": value} joined by {@code ", "}); none when the line does not open with <code>{"</code>.
     */
    static List<int[]> fieldSpans(String line) {
        List<int[]> spans = new ArrayList<>();
        if (!line.startsWith("{\"")) {
            return spans;
        }
        int i = 1;
        while (i < line.length() && line.charAt(i) == '"') {
            int colon = line.indexOf("\": ", i + 1);
            if (colon < 0) {
                break;
            }
            int valueStart = colon + 3;
            int end = valueEnd(line, valueStart);
            if (end < 0) {
                break;
            }
            spans.add(new int[] {i, valueStart, end});
            if (!line.startsWith(", ", end)) {
                break;
            }
            i = end + 2;
        }
        return spans;
    }

    /** Where the value starting at {@code from} ends (the index after it), or -1 when the line ends first. */
    private static int valueEnd(String line, int from) {
        int depth = 0;
        boolean inString = false;
        for (int i = from; i < line.length(); i++) {
            char c = line.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                    if (depth == 0) {
                        return i + 1;
                    }
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '[' || c == '{') {
                depth++;
            } else if (c == ']' || c == '}') {
                if (depth == 0) {
                    return i;
                }
                depth--;
                if (depth == 0) {
                    return i + 1;
                }
            } else if (c == ',' && depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /** A letter just inside a quote written as its escape: {@code "seq"} as {@code "\u0073eq"}, the same text. */
    static String escapeALetter(String line, Random random) {
        List<Integer> at = new ArrayList<>();
        for (int i = 0; i + 1 < line.length(); i++) {
            if (line.charAt(i) == '"' && Character.isLetter(line.charAt(i + 1))) {
                at.add(i + 1);
            }
        }
        if (at.isEmpty()) {
            return line;
        }
        int i = at.get(random.nextInt(at.size()));
        return line.substring(0, i) + String.format("\\u%04x", (int) line.charAt(i)) + line.substring(i + 1);
    }
}
