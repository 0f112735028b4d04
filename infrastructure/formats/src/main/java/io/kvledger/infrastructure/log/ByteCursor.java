package io.kvledger.infrastructure.log;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A position in one line's bytes and the JSON values read there, in exactly the writers' spelling: integers from
 * their digits, strings of printable ASCII, the literals, arrays with {@code ", "} between elements. It knows JSON's
 * bytes and nothing of events ({@link ByteLines} walks a type's fields with it). Each read either takes a whole value
 * and moves past it, or says no ({@code false}, {@code null}, or {@link Decline} inside an array) and leaves the
 * value to Jackson: an escape, a non-ASCII or control byte, a fraction, an exponent, a leading zero, {@code -0}, a
 * number past a long or {@code -2^63}, other whitespace, or the line's end. It never reads a byte at or past the
 * line's end, whatever the buffer holds there. Reused from line to line; not thread-safe.
 */
final class ByteCursor {

    /** A string of this many bytes or more is left to Jackson, which holds strings to its own limit. */
    static final int LONGEST_STRING = 1 << 20;
    private static final byte[] NULL = ascii("null");

    private final RecentStrings strings;
    /** The line being read, the position of the next byte, and the end of the line. */
    private byte[] b;
    private int pos;
    private int end;
    /** The last number read. */
    private long number;

    ByteCursor(RecentStrings strings) {
        this.strings = strings;
    }

    /** Starts on the line of {@code length} bytes at {@code offset} of {@code bytes}. */
    void start(byte[] bytes, int offset, int length) {
        b = bytes;
        pos = offset;
        end = offset + length;
    }

    /** Lets go of the line's buffer. */
    void clear() {
        b = null;
    }

    /**
     * {@code Long.MAX_VALUE}'s digits but the last, and its last: a number grows past a long exactly when it is above
     * the first with a digit to come, or equal to it with a digit above the second. Compared, not divided: under C1 a
     * long division is a call into the VM, once per digit (5 % of a log's parse thread).
     */
    private static final long LONG_TENTH = Long.MAX_VALUE / 10;
    private static final int LONG_LAST_DIGIT = (int) (Long.MAX_VALUE % 10);

    /** The number the last {@link #readNumber()} or {@link #readInt()} took. */
    long number() {
        return number;
    }

    /** Whether the next byte is the line's last and is {@code last}. */
    boolean atLast(byte last) {
        return pos == end - 1 && b[pos] == last;
    }

    /** Skips {@code expected} when the bytes at the position are exactly it. */
    boolean skip(byte[] expected) {
        int n = expected.length;
        if (end - pos < n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (b[pos + i] != expected[i]) {
                return false;
            }
        }
        pos += n;
        return true;
    }

    /**
     * Skips a name and its closing quote when the bytes up to the next quote are one of {@code names}: returns its
     * index, or -1 (the position unchanged) when no quote follows or the name is none of them. {@code hint} is
     * tried first.
     */
    int skipName(byte[][] names, int hint) {
        int quote = pos;
        while (quote < end && b[quote] != '"') {
            quote++;
        }
        if (quote == end) {
            return -1;
        }
        if (holds(names[hint], quote)) {
            pos = quote + 1;
            return hint;
        }
        for (int i = 0; i < names.length; i++) {
            if (holds(names[i], quote)) {
                pos = quote + 1;
                return i;
            }
        }
        return -1;
    }

    private boolean holds(byte[] name, int to) {
        return name.length == to - pos && Arrays.equals(name, 0, name.length, b, pos, to);
    }

    /**
     * An integer at the position into {@link #number()}: an optional minus, then digits without a leading zero, within
     * a long (but {@code -2^63}), and not {@code -0}; the byte after it must end a value ({@code ,} {@code ]} {@code }}),
     * so a fraction, an exponent or anything else is left to Jackson.
     */
    boolean readNumber() {
        int p = pos;
        boolean negative = p < end && b[p] == '-';
        if (negative) {
            p++;
        }
        int start = p;
        long value = 0;
        while (p < end) {
            int digit = b[p] - '0';
            if (digit < 0 || digit > 9) {
                break;
            }
            if (value >= LONG_TENTH && (value > LONG_TENTH || digit > LONG_LAST_DIGIT)) {
                return false; // past a long (and -2^63 too, whose magnitude is): Jackson's
            }
            value = value * 10 + digit;
            p++;
        }
        int digits = p - start;
        if (digits == 0 || (digits > 1 && b[start] == '0') || (negative && value == 0) || !endsValue(p)) {
            return false;
        }
        number = negative ? -value : value;
        pos = p;
        return true;
    }

    /** {@link #readNumber()} of a value within Java's {@code int}, the range the tree path holds an integer field to. */
    boolean readInt() {
        return readNumber() && number >= Integer.MIN_VALUE && number <= Integer.MAX_VALUE;
    }

    private boolean endsValue(int p) {
        if (p >= end) {
            return false;
        }
        byte next = b[p];
        return next == ',' || next == ']' || next == '}';
    }

    /** {@code true}, {@code false} or {@code null} at the position, as a whole value: skipped when it is there. */
    boolean skipLiteral(byte[] literal) {
        if (end - pos < literal.length || !Arrays.equals(literal, 0, literal.length, b, pos, pos + literal.length)
                || !endsValue(pos + literal.length)) {
            return false;
        }
        pos += literal.length;
        return true;
    }

    /** {@link #skipLiteral} of {@code null}. */
    boolean skipNull() {
        return skipLiteral(NULL);
    }

    /**
     * A string of printable ASCII at the position, quotes included (ids and keys through {@link RecentStrings});
     * {@code null} at an escape, a control character or a byte of a multi-byte character (Jackson reads those), at
     * {@value #LONGEST_STRING} bytes or more, or without its closing quote.
     */
    String readString() {
        if (pos >= end || b[pos] != '"') {
            return null;
        }
        int start = pos + 1;
        int p = start;
        int limit = Math.min(end, start + LONGEST_STRING);
        while (p < limit) {
            byte c = b[p];
            if (c == '"') {
                pos = p + 1;
                return strings.ofAscii(b, start, p - start);
            }
            if (c == '\\' || c < 0x20) { // a byte of 0x80 and above is negative
                return null;
            }
            p++;
        }
        return null;
    }

    /** A quoted string that is exactly one of {@code choices}: skipped, and its index; -1 when it is none of them. */
    int readChoice(byte[][] choices) {
        if (pos >= end || b[pos] != '"') {
            return -1;
        }
        int start = pos + 1;
        for (int i = 0; i < choices.length; i++) {
            byte[] choice = choices[i];
            int close = start + choice.length;
            if (close < end && b[close] == '"' && Arrays.equals(choice, 0, choice.length, b, start, close)) {
                pos = close + 1;
                return i;
            }
        }
        return -1;
    }

    /** {@code [} then {@code ]}, or the first element: {@code false} when the array is empty (skipped), {@link Decline} when not an array. */
    boolean openArray() {
        if (pos >= end || b[pos] != '[') {
            throw Decline.INSTANCE;
        }
        pos++;
        if (pos < end && b[pos] == ']') {
            pos++;
            return false;
        }
        return true;
    }

    /** After an element: {@code true} at {@code , } (another follows), {@code false} at {@code ]} (skipped), else {@link Decline}. */
    boolean nextElement() {
        if (pos < end && b[pos] == ']') {
            pos++;
            return false;
        }
        if (end - pos >= 2 && b[pos] == ',' && b[pos + 1] == ' ') {
            pos += 2;
            return true;
        }
        throw Decline.INSTANCE;
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** Thrown inside an array at a byte that ends no element: the line is left to the other readers. */
    static final class Decline extends RuntimeException {
        static final Decline INSTANCE = new Decline();

        private Decline() {
            super(null, null, false, false);
        }
    }
}
