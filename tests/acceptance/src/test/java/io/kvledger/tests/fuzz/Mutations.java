package io.kvledger.tests.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/**
 * A seeded generator of hostile input: arbitrary bytes, near-valid JSON (real lines with an edit),
 * extreme numbers, odd Unicode (escaped lone surrogates, invalid UTF-8, BOMs, NULs, bare CRs) and huge
 * values (long strings and arrays, deep nesting, a line over the line limit). The same seed gives the
 * same input, so a failure is reproduced from the seed in its message.
 */
final class Mutations {

    private static final String[] NUMBERS = {"1e400", "-1e400", "9223372036854775808", "-9223372036854775809",
            "2147483648", "-1", "-0", "0", "1.5", "4.0", "1E2", "0.0000001", "NaN", "Infinity", "00", "01", "-",
            "9".repeat(1200), "1" + "0".repeat(400), "18446744073709551616", "1e-400"};
    private static final String[] STRINGS = {"\"\\ud800\"", "\"\\udfff\"", "\"\\ud800\\ud800\"", "\"\\udc00\\ud800\"",
            "\"\\u0000\"", "\"\\ufffe\"", "\"\\uD83D\\uDE00\"", "\"\u202e\"", "\"\"", "\" \"", "\"\\\"\"", "\"\\\\\"",
            "\"\\u00\"", "\"\\x41\"", "null", "true", "[]", "{}", "[null]", "[\"a\"]", "[1e400]", "[-1]"};
    private static final byte[][] BYTES = {{(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, {(byte) 0xC0, (byte) 0xAF},
            {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xFF}, {(byte) 0x80}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
            {0}, {'\r'}, {'\n'}, {'\r', '\n'}, {'\t'}, {(byte) 0xE2, (byte) 0x80, (byte) 0xA8}};

    private final Random random;
    private final int lineLimit;

    Mutations(long seed, int lineLimit) {
        this.random = new Random(seed);
        this.lineLimit = lineLimit;
    }

    /** A hostile file made from the given valid lines. */
    byte[] file(List<String> valid) {
        int kind = random.nextInt(10);
        if (kind == 0) {
            return arbitraryBytes();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int edits = 1 + random.nextInt(3);
        int[] edited = new int[edits];
        for (int i = 0; i < edits; i++) {
            edited[i] = random.nextInt(valid.size());
        }
        int cut = random.nextInt(8) == 0 ? 1 + random.nextInt(valid.size()) : valid.size();
        for (int i = 0; i < cut; i++) {
            byte[] line = valid.get(i).getBytes(StandardCharsets.UTF_8);
            for (int e : edited) {
                if (e == i) {
                    line = edit(line);
                }
            }
            out.writeBytes(line);
            if (i < cut - 1 || random.nextInt(4) != 0) {
                out.write('\n');
            }
        }
        return out.toByteArray();
    }

    private byte[] arbitraryBytes() {
        byte[] bytes = new byte[random.nextInt(3000)];
        random.nextBytes(bytes);
        for (int i = 0; i < bytes.length; i++) {
            if (random.nextInt(40) == 0) {
                bytes[i] = '\n';
            }
        }
        return bytes;
    }

    private byte[] edit(byte[] line) {
        String text = new String(line, StandardCharsets.UTF_8);
        return switch (random.nextInt(12)) {
            case 0 -> bytes(replaceValue(text, pick(NUMBERS)));
            case 1 -> bytes(replaceValue(text, pick(STRINGS)));
            case 2 -> insertBytes(line, BYTES[random.nextInt(BYTES.length)]);
            case 3 -> delete(line);
            case 4 -> bytes(text.substring(0, random.nextInt(text.length() + 1)));
            case 5 -> bytes(replaceValue(text, "\"" + "x".repeat(random.nextInt(200_000)) + "\""));
            case 6 -> bytes(replaceValue(text, "[" + "7,".repeat(random.nextInt(100_000)) + "7]"));
            case 7 -> bytes(replaceValue(text, "[".repeat(random.nextInt(3000)) + "]".repeat(random.nextInt(3000))));
            case 8 -> bytes(text + (random.nextBoolean() ? " {}" : "\r" + text));
            case 9 -> bytes(replaceValue(text, "\"" + "y".repeat(lineLimit + 10) + "\""));
            case 10 -> bytes(text.replaceFirst("\"[a-zA-Z]+\"", java.util.regex.Matcher.quoteReplacement(pick(STRINGS))));
            default -> insertBytes(line, new byte[] {(byte) random.nextInt(256)});
        };
    }

    /** Replaces one value (after a colon) of a JSON line. */
    private String replaceValue(String text, String value) {
        int colon = nthIndex(text, ':');
        if (colon < 0) {
            return text + value;
        }
        int end = colon + 1;
        int depth = 0;
        boolean inString = false;
        while (end < text.length()) {
            char c = text.charAt(end);
            if (inString) {
                if (c == '\\') {
                    end++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '[' || c == '{') {
                depth++;
            } else if (c == ']' || c == '}') {
                if (depth == 0) {
                    break;
                }
                depth--;
            } else if (c == ',' && depth == 0) {
                break;
            }
            end++;
        }
        return text.substring(0, colon + 1) + " " + value + text.substring(Math.min(end, text.length()));
    }

    private int nthIndex(String text, char c) {
        int count = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == c) {
                count++;
            }
        }
        if (count == 0) {
            return -1;
        }
        int wanted = random.nextInt(count);
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == c && wanted-- == 0) {
                return i;
            }
        }
        return -1;
    }

    private byte[] insertBytes(byte[] line, byte[] inserted) {
        int at = random.nextInt(line.length + 1);
        byte[] out = new byte[line.length + inserted.length];
        System.arraycopy(line, 0, out, 0, at);
        System.arraycopy(inserted, 0, out, at, inserted.length);
        System.arraycopy(line, at, out, at + inserted.length, line.length - at);
        return out;
    }

    private byte[] delete(byte[] line) {
        if (line.length == 0) {
            return line;
        }
        int at = random.nextInt(line.length);
        int length = 1 + random.nextInt(Math.min(8, line.length - at));
        byte[] out = new byte[line.length - length];
        System.arraycopy(line, 0, out, 0, at);
        System.arraycopy(line, at + length, out, at, line.length - at - length);
        return out;
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
