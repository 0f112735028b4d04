package io.kvledger.infrastructure.log;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;

/**
 * A log's bytes as the reader wants them: a gzip-compressed log (found by its magic bytes, whatever
 * its name) is decompressed on the fly, anything else passes through unchanged. Placed in front of
 * {@link EventLogReader}, so every tool reads a compressed store or log as it reads a plain one.
 */
public final class CompressedLogs {

    private static final int GZIP_MAGIC_1 = 0x1f;
    private static final int GZIP_MAGIC_2 = 0x8b;

    private CompressedLogs() {
    }

    /** {@code in} decompressed if it starts as a gzip stream does; {@code in} (buffered) otherwise. */
    public static InputStream decompressed(InputStream in) throws IOException {
        BufferedInputStream buffered = in instanceof BufferedInputStream b ? b : new BufferedInputStream(in, 1 << 16);
        buffered.mark(2);
        int first = buffered.read();
        int second = buffered.read();
        buffered.reset();
        if (first == GZIP_MAGIC_1 && second == GZIP_MAGIC_2) {
            return new GZIPInputStream(buffered, 1 << 16);
        }
        return buffered;
    }
}
