package io.kvledger.infrastructure.store;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A buffered stream over a byte range of a file, read with positional reads: it never moves the
 * channel's own position, so readers may run while the store appends, and it never reads past
 * {@code end}, so a reader never sees an append that is still being written.
 */
final class ChannelInputStream extends InputStream {

    private static final int BUFFER = 64 * 1024;

    private final FileChannel channel;
    private final long end;
    private final ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
    private long filePosition;
    private long consumed;

    ChannelInputStream(FileChannel channel, long start, long end) {
        this.channel = channel;
        this.end = end;
        this.filePosition = start;
        this.consumed = start;
        buffer.limit(0);
    }

    /** The file position of the next byte {@link #read()} returns. */
    long position() {
        return consumed;
    }

    @Override
    public int read() throws IOException {
        if (!buffer.hasRemaining() && !fill()) {
            return -1;
        }
        consumed++;
        return buffer.get() & 0xff;
    }

    @Override
    public int read(byte[] into, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (!buffer.hasRemaining() && !fill()) {
            return -1;
        }
        int n = Math.min(length, buffer.remaining());
        buffer.get(into, offset, n);
        consumed += n;
        return n;
    }

    private boolean fill() throws IOException {
        if (filePosition >= end) {
            return false;
        }
        buffer.clear();
        buffer.limit((int) Math.min(BUFFER, end - filePosition));
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, filePosition);
            if (n < 0) {
                throw new IOException("the file ends at " + filePosition + ", before " + end + ": was it truncated by someone else?");
            }
            filePosition += n;
        }
        buffer.flip();
        return true;
    }
}
