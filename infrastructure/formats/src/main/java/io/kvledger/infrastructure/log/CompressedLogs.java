package io.kvledger.infrastructure.log;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

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
        return decompressed(in, "the gzip stream");
    }

    /**
     * As {@link #decompressed(InputStream)}, a damaged gzip stream failing with an {@link IOException} that
     * names {@code name} (the file) and what is wrong, e.g. "S.jsonl.gz is cut: ...", not the JDK's
     * exception (a cut stream is an {@link EOFException} without a message).
     */
    public static InputStream decompressed(InputStream in, String name) throws IOException {
        BufferedInputStream buffered = in instanceof BufferedInputStream b ? b : new BufferedInputStream(in, 1 << 16);
        buffered.mark(2);
        int first = buffered.read();
        int second = buffered.read();
        buffered.reset();
        if (first == GZIP_MAGIC_1 && second == GZIP_MAGIC_2) {
            try {
                return new Explained(new GZIPInputStream(buffered, 1 << 16), name);
            } catch (IOException e) {
                throw explain(e, name);
            }
        }
        return buffered;
    }

    private static IOException explain(IOException e, String name) {
        if (e instanceof EOFException) {
            return new IOException(name + " is cut: its gzip data ends before the end of the compressed stream"
                    + " (a file written or copied only in part)", e);
        }
        if (e instanceof ZipException) {
            return new IOException(name + " is not valid gzip data"
                    + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")") + ": the compressed file is damaged", e);
        }
        return e;
    }

    /** A gzip stream whose failures say what is wrong with the file. */
    private static final class Explained extends FilterInputStream {
        private final String name;

        Explained(InputStream in, String name) {
            super(in);
            this.name = name;
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (IOException e) {
                throw explain(e, name);
            }
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            try {
                return super.read(buffer, offset, length);
            } catch (IOException e) {
                throw explain(e, name);
            }
        }

        @Override
        public long skip(long n) throws IOException {
            try {
                return super.skip(n);
            } catch (IOException e) {
                throw explain(e, name);
            }
        }
    }
}
