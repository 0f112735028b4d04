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

    private final InputStream in;
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(256);
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private long number;
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
     * The next line, or {@code null} at the end.
     *
     * @throws InvalidUtf8Exception when the line is not valid UTF-8
     */
    public String next() throws IOException {
        if (ended) {
            return null;
        }
        buffer.reset();
        int b;
        while ((b = in.read()) != -1 && b != '\n') {
            buffer.write(b);
        }
        if (b == -1) {
            ended = true;
            if (buffer.size() == 0) {
                return null;
            }
        }
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
}
