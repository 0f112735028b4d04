package io.kvledger.infrastructure.log;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A growing buffer of JSON values written straight as bytes, as Jackson's generator writes them in the contract's
 * spacing: numbers, booleans, strings that need no escape, and arrays of those ({@code ", "} between elements).
 * What it does not write itself (a string JSON escapes or that is not ASCII, a null in a list of numbers) it
 * refuses with {@code false}, part of the value written: the caller goes back to the {@link #size()} it began at
 * ({@link #truncate}) and writes the value otherwise. Not thread-safe.
 */
final class JsonBytes {

    private static final byte[] TRUE = ascii("true");
    private static final byte[] FALSE = ascii("false");
    private static final byte[] NULL = ascii("null");

    /** {@code Long.MIN_VALUE}'s 20 characters, the longest number. */
    private static final int MAX_NUMBER = 20;
    private static final byte[] MIN_INT = ascii(Integer.toString(Integer.MIN_VALUE));
    /** "00" to "99", two bytes each. */
    private static final byte[] PAIRS = new byte[200];

    static {
        for (int i = 0; i < 100; i++) {
            PAIRS[2 * i] = (byte) ('0' + i / 10);
            PAIRS[2 * i + 1] = (byte) ('0' + i % 10);
        }
    }

    /** Slots of the table of recent strings, a power of two. */
    private static final int RECENT = 4096;

    private final String[] recentStrings = new String[RECENT];
    private final byte[][] recentQuoted = new byte[RECENT][];
    private byte[] bytes;
    private int size;

    JsonBytes(int capacity) {
        bytes = new byte[capacity];
    }

    /** The bytes written since the last {@link #clear}, in {@code [0, size())}. */
    byte[] bytes() {
        return bytes;
    }

    int size() {
        return size;
    }

    void clear() {
        size = 0;
    }

    /** Drops what was written after {@code size}, a size this buffer had. */
    void truncate(int size) {
        this.size = size;
    }

    /** Appends bytes encoded elsewhere. */
    void append(byte[] from, int offset, int length) {
        ensure(length);
        System.arraycopy(from, offset, bytes, size, length);
        size += length;
    }

    void bool(boolean value) {
        put(value ? TRUE : FALSE);
    }

    void comma() {
        ensure(2);
        bytes[size++] = ',';
        bytes[size++] = ' ';
    }

    /** {@code [1, 2]}; {@code false} at a null element. */
    boolean intArray(List<Integer> values) {
        put((byte) '[');
        for (int i = 0, n = values.size(); i < n; i++) {
            if (i > 0) {
                comma();
            }
            Integer value = values.get(i);
            if (value == null) {
                return false;
            }
            number(value);
        }
        put((byte) ']');
        return true;
    }

    /** {@code [1, 2]}; {@code false} at a null element. */
    boolean longArray(List<Long> values) {
        put((byte) '[');
        for (int i = 0, n = values.size(); i < n; i++) {
            if (i > 0) {
                comma();
            }
            Long value = values.get(i);
            if (value == null) {
                return false;
            }
            number(value);
        }
        put((byte) ']');
        return true;
    }

    /** {@code ["a", "b"]}; {@code false} at a string {@link #string} refuses. */
    boolean stringArray(List<String> values) {
        put((byte) '[');
        for (int i = 0, n = values.size(); i < n; i++) {
            if (i > 0) {
                comma();
            }
            if (!string(values.get(i))) {
                return false;
            }
        }
        put((byte) ']');
        return true;
    }

    /** An array of integers, strings and nulls; {@code false} at any other element or a string {@link #string} refuses. */
    boolean scalarArray(List<?> values) {
        put((byte) '[');
        for (int i = 0, n = values.size(); i < n; i++) {
            if (i > 0) {
                comma();
            }
            Object value = values.get(i);
            if (value == null) {
                put(NULL);
            } else if (value instanceof Integer number) {
                number(number);
            } else if (!(value instanceof String text) || !string(text)) {
                return false;
            }
        }
        put((byte) ']');
        return true;
    }

    /**
     * A string as JSON writes it when nothing in it is escaped: printable ASCII without a quote or a backslash.
     * {@code false} for any other string (a null one too), which Jackson writes. A string written lately is
     * copied from its bytes of then: the engine's events name a request or a key again and again by the same
     * {@code String}.
     */
    boolean string(String value) {
        if (value == null) {
            return false;
        }
        int slot = value.hashCode() & (RECENT - 1);
        if (recentStrings[slot] == value) {
            put(recentQuoted[slot]);
            return true;
        }
        int n = value.length();
        ensure(n + 2);
        byte[] into = bytes;
        int start = size;
        int at = start;
        into[at++] = '"';
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
                return false;
            }
            into[at++] = (byte) c;
        }
        into[at++] = '"';
        size = at;
        recentStrings[slot] = value;
        recentQuoted[slot] = Arrays.copyOfRange(into, start, at);
        return true;
    }

    /** The decimal digits of {@code value}, as Jackson writes a number. */
    void number(long value) {
        if (value == (int) value) {
            number((int) value);
            return;
        }
        ensure(MAX_NUMBER);
        byte[] text = ascii(Long.toString(value)); // rare: a job id past 2^31
        System.arraycopy(text, 0, bytes, size, text.length);
        size += text.length;
    }

    /** Two digits at a time, from the right: C1 compiles a division by 100 into a multiply, as it does 10. */
    void number(int value) {
        ensure(MAX_NUMBER);
        if (value == Integer.MIN_VALUE) {
            put(MIN_INT);
            return;
        }
        byte[] into = bytes;
        int at = size;
        if (value < 0) {
            into[at++] = '-';
            value = -value;
        }
        int end = at + length(value);
        int i = end;
        while (value >= 100) {
            int pair = (value % 100) * 2;
            value /= 100;
            into[--i] = PAIRS[pair + 1];
            into[--i] = PAIRS[pair];
        }
        if (value >= 10) {
            into[--i] = PAIRS[value * 2 + 1];
            into[--i] = PAIRS[value * 2];
        } else {
            into[--i] = (byte) ('0' + value);
        }
        size = end;
    }

    /** The digits of {@code value} >= 0. */
    private static int length(int value) {
        int length = 1;
        for (int bound = 10; length < 10 && value >= bound; bound *= 10) {
            length++;
        }
        return length;
    }

    void put(byte b) {
        ensure(1);
        bytes[size++] = b;
    }

    /** Bytes laid out beforehand: a field's name, a punctuation. */
    void put(byte[] literal) {
        ensure(literal.length);
        System.arraycopy(literal, 0, bytes, size, literal.length);
        size += literal.length;
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
