package io.kvledger.infrastructure.json;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Physical lines of a UTF-8 file, decoded strictly: invalid UTF-8 is reported with its line number
 * instead of being replaced silently. A trailing CR is dropped, so CRLF files read the same.
 */
public final class Utf8Lines {

    private static final int READ_BYTES = 1 << 16;
    private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;

    /**
     * The longest line read, in bytes, unless {@code -Dkvledger.maxLineBytes} says otherwise. Parsing a
     * line costs about 45 times its size in memory (a tree of boxed numbers, then records), so 8 MiB (over
     * a million prompt tokens) stays within a 512 MB heap; a longer line is refused with its number.
     */
    public static final int DEFAULT_MAX_LINE_BYTES = 8 << 20;

    private final int maxLineBytes = Integer.getInteger("kvledger.maxLineBytes", DEFAULT_MAX_LINE_BYTES);

    private final InputStream in;
    /** Bytes read ahead from {@code in}: reading them one call at a time would cost more than parsing them. */
    private final byte[] readAhead = new byte[READ_BYTES];
    private int position;
    private int limit;
    private final LineBuffer buffer = new LineBuffer();
    /** The bytes of the line last advanced to: the read-ahead when the line lies in it whole, else the buffer. */
    private byte[] line = new byte[0];
    private int lineStart;
    private int lineEnd;
    private boolean ascii;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private long number;
    private long consumed;
    private boolean ended;
    private boolean terminated;

    /** A line that is not valid UTF-8. */
    public static final class InvalidUtf8Exception extends IOException {
        private final long line;

        InvalidUtf8Exception(long line) {
            super("line " + line + ": not valid UTF-8");
            this.line = line;
        }

        public long line() {
            return line;
        }
    }

    /** A line longer than the limit: refused before it is held, so memory stays bounded. */
    public static final class LineTooLongException extends IOException {
        private final long line;

        LineTooLongException(long line, int limit) {
            super("line " + line + ": longer than " + limit + " bytes, the limit of one line (raise it with"
                    + " -Dkvledger.maxLineBytes=N in KVLEDGER_JAVA_OPTS, with about 45 times as much heap)");
            this.line = line;
        }

        public long line() {
            return line;
        }

        /** The reason, without the line number. */
        public String reason() {
            return getMessage().substring(getMessage().indexOf(": ") + 2);
        }
    }

    public Utf8Lines(InputStream in) {
        this(in, 0);
    }

    /** Lines of a stream that starts after {@code linesBefore} lines of its file, so numbers stay those of the file. */
    public Utf8Lines(InputStream in, long linesBefore) {
        this.in = in;
        this.number = linesBefore;
    }

    /** The number of the line last returned, from 1. */
    public long number() {
        return number;
    }

    /**
     * Bytes of the input up to the end of the line last returned, its newline included. Not the input's
     * position, which reading ahead has moved further.
     */
    public long consumed() {
        return consumed;
    }

    /**
     * The next line, or {@code null} at the end.
     *
     * @throws InvalidUtf8Exception when the line is not valid UTF-8
     */
    public String next() throws IOException {
        if (!advance()) {
            return null;
        }
        return text();
    }

    /** The line last advanced to, as text. */
    public String text() {
        return new String(line, lineStart, lineEnd - lineStart, StandardCharsets.UTF_8);
    }

    /** The bytes of the line last advanced to (a shared buffer: read them before advancing again). */
    public byte[] bytes() {
        return line;
    }

    /** Where the line's bytes start in {@link #bytes()}: after a byte order mark on line 1. */
    public int offset() {
        return lineStart;
    }

    /** The line's length in bytes, without its CR or LF. */
    public int length() {
        return lineEnd - lineStart;
    }

    /** Whether the line last advanced to ended with a newline (only the input's last line may not: a cut file's). */
    public boolean terminated() {
        return terminated;
    }

    /** Whether the line holds only whitespace, as {@link String#isBlank()} says. */
    public boolean isBlank() {
        if (!ascii) {
            return text().isBlank();
        }
        for (int i = lineStart; i < lineEnd; i++) {
            if (!Character.isWhitespace(line[i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Moves to the next line, checked to be valid UTF-8 without copying it; {@code false} at the end.
     *
     * @throws InvalidUtf8Exception when the line is not valid UTF-8
     */
    public boolean advance() throws IOException {
        if (ended) {
            return false;
        }
        buffer.reset();
        boolean newline = false;
        long lineBytes = 0;
        int highBits = 0;
        long highWords = 0;
        byte[] whole = null; // the read-ahead itself, when the line lies in it whole: no copy
        int wholeStart = 0;
        int wholeEnd = 0;
        while (!newline) {
            if (position == limit && !fill()) {
                ended = true;
                if (buffer.size() == 0) {
                    return false;
                }
                break;
            }
            int start = position;
            byte[] ahead = readAhead;
            int at = position;
            int end = limit;
            // Eight bytes at a time up to the word holding the newline, then byte by byte to it.
            while (at + 8 <= end) {
                long word = (long) WORDS.get(ahead, at);
                long newlines = word ^ NEWLINES;
                if (((newlines - ONES) & ~newlines & HIGH_BITS) != 0) {
                    break;
                }
                highWords |= word;
                at += 8;
            }
            while (at < end) {
                byte b = ahead[at];
                if (b == '\n') {
                    break;
                }
                highBits |= b; // negative once any byte is not ASCII
                at++;
            }
            position = at;
            lineBytes += position - start;
            if (lineBytes > maxLineBytes) {
                ended = true;
                throw new LineTooLongException(number + 1, maxLineBytes);
            }
            if (position < limit && buffer.size() == 0) {
                whole = readAhead;
                wholeStart = start;
                wholeEnd = position;
            } else {
                buffer.write(readAhead, start, position - start);
            }
            if (position < limit) {
                newline = true;
                position++;
                lineBytes++;
            }
        }
        consumed += lineBytes;
        number++;
        terminated = newline;
        if (whole != null) {
            line = whole;
            lineStart = wholeStart;
            lineEnd = wholeEnd;
        } else {
            line = buffer.bytes();
            lineStart = 0;
            lineEnd = buffer.size();
        }
        if (lineEnd > lineStart && line[lineEnd - 1] == '\r') {
            lineEnd--;
        }
        ascii = highBits >= 0 && (highWords & HIGH_BITS) == 0;
        if (!ascii) {
            try {
                decoder.reset().decode(ByteBuffer.wrap(line, lineStart, lineEnd - lineStart)); // only to check it
            } catch (CharacterCodingException e) {
                throw new InvalidUtf8Exception(number);
            }
            if (number == 1 && lineEnd - lineStart >= 3 && line[lineStart] == (byte) 0xEF
                    && line[lineStart + 1] == (byte) 0xBB && line[lineStart + 2] == (byte) 0xBF) {
                lineStart += 3; // a byte order mark
            }
        }
        return true;
    }

    /** The bytes of the line being read, without a copy per line. */
    private static final class LineBuffer extends ByteArrayOutputStream {
        LineBuffer() {
            super(256);
        }

        byte[] bytes() {
            return buf;
        }
    }

    /** Reads more bytes ahead; {@code false} at the end of the input. */
    private boolean fill() throws IOException {
        int n;
        do {
            n = in.read(readAhead, 0, readAhead.length);
        } while (n == 0);
        position = 0;
        limit = Math.max(n, 0);
        return n > 0;
    }
}
