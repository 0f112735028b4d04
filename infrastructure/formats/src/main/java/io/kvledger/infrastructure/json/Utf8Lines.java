package io.kvledger.infrastructure.json;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
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

    private final InputStream in;
    /** Bytes read ahead from {@code in}: reading them one call at a time would cost more than parsing them. */
    private final byte[] readAhead = new byte[READ_BYTES];
    private int position;
    private int limit;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(256);
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private long number;
    private long consumed;
    private boolean ended;

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
        if (ended) {
            return null;
        }
        buffer.reset();
        boolean newline = false;
        long lineBytes = 0;
        while (!newline) {
            if (position == limit && !fill()) {
                ended = true;
                if (buffer.size() == 0) {
                    return null;
                }
                break;
            }
            int start = position;
            while (position < limit && readAhead[position] != '\n') {
                position++;
            }
            buffer.write(readAhead, start, position - start);
            lineBytes += position - start;
            if (position < limit) {
                newline = true;
                position++;
                lineBytes++;
            }
        }
        consumed += lineBytes;
        number++;
        byte[] bytes = buffer.toByteArray();
        int length = bytes.length;
        if (length > 0 && bytes[length - 1] == '\r') {
            length--;
        }
        try {
            String text = decoder.reset().decode(ByteBuffer.wrap(bytes, 0, length)).toString();
            return number == 1 && text.startsWith("\uFEFF") ? text.substring(1) : text;
        } catch (CharacterCodingException e) {
            throw new InvalidUtf8Exception(number);
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
