package io.kvledger.infrastructure.serve;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Reads newline-terminated lines as bytes into a buffer reused from line to line (Jackson decodes the
 * UTF-8 itself). A line cut short by the end of the stream is not a line: a client that disconnects
 * mid-request sent nothing.
 */
final class LineInput {

    private final InputStream in;
    private final byte[] chunk = new byte[64 * 1024];
    private int chunkPos;
    private int chunkEnd;
    private byte[] line = new byte[64 * 1024];
    private int length;

    LineInput(InputStream in) {
        this.in = in;
    }

    /**
     * Reads the next line (without its {@code \n}, or a {@code \r\n}); false at the end of the stream.
     *
     * @throws LineTooLongException after skipping the rest of a line longer than {@code max}
     */
    boolean next(int max) throws IOException {
        length = 0;
        boolean tooLong = false;
        while (true) {
            if (chunkPos == chunkEnd) {
                int n = in.read(chunk);
                if (n < 0) {
                    return false;
                }
                chunkPos = 0;
                chunkEnd = n;
            }
            int start = chunkPos;
            int end = start;
            while (end < chunkEnd && chunk[end] != '\n') {
                end++;
            }
            if (!tooLong) {
                if ((long) length + (end - start) > max) {
                    tooLong = true;
                } else {
                    append(start, end - start);
                }
            }
            if (end < chunkEnd) {
                chunkPos = end + 1;
                if (tooLong) {
                    throw new LineTooLongException();
                }
                if (length > 0 && line[length - 1] == '\r') {
                    length--;
                }
                return true;
            }
            chunkPos = chunkEnd;
        }
    }

    byte[] bytes() {
        return line;
    }

    int length() {
        return length;
    }

    boolean isBlank() {
        for (int i = 0; i < length; i++) {
            byte b = line[i];
            if (b != ' ' && b != '\t') {
                return false;
            }
        }
        return true;
    }

    private void append(int from, int count) {
        if (length + count > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, length + count));
        }
        System.arraycopy(chunk, from, line, length, count);
        length += count;
    }

    static final class LineTooLongException extends IOException {
        LineTooLongException() {
            super("line too long", null);
        }
    }
}
