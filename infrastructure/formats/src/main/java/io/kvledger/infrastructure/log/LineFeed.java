package io.kvledger.infrastructure.log;

import java.io.InputStream;

/**
 * The input of {@link StreamedLines}' one parser: the lines of a log, one at a time. It hands out only the line
 * {@link #start started} last and says end-of-input past it, so the parser never reads a line's bytes as part of
 * the line before: a line our writer writes ends with its object's closing brace, which the parser reads
 * without looking further. A parser that was told end-of-input ({@link #overran()}) is done with: it is never given
 * another line. Counts the bytes handed out since the parser was made, the parser's own byte offsets.
 */
final class LineFeed extends InputStream {

    private byte[] bytes = new byte[0];
    private int next;
    private int end;
    /** Bytes handed out since {@link #restart()}: where the parser's byte offsets count from. */
    private long handedOut;
    private long lineStart;
    private boolean overran;

    /** Counts from 0 again: for a parser made now. */
    void restart() {
        handedOut = 0;
        lineStart = 0;
    }

    /** Hands out these bytes, a line without its end-of-line, and then nothing more. */
    void start(byte[] line, int offset, int length) {
        bytes = line;
        next = offset;
        end = offset + length;
        lineStart = handedOut;
        overran = false;
    }

    /** The parser's byte offset of the line's first byte. */
    long lineStart() {
        return lineStart;
    }

    /** Whether the parser asked for more than the line: it was told end-of-input, so it must not be used again. */
    boolean overran() {
        return overran;
    }

    @Override
    public int read(byte[] to, int at, int length) {
        if (length == 0) {
            return 0;
        }
        if (next == end) {
            overran = true;
            return -1;
        }
        int n = Math.min(length, end - next);
        System.arraycopy(bytes, next, to, at, n);
        next += n;
        handedOut += n;
        return n;
    }

    @Override
    public int read() {
        if (next == end) {
            overran = true;
            return -1;
        }
        handedOut++;
        return bytes[next++] & 0xFF;
    }

    /** A parser closes its input at its end: the feed outlives it. */
    @Override
    public void close() {
    }
}
