package io.kvledger.tests.failure;

import java.io.IOException;
import java.io.OutputStream;

/** An stdout that takes {@code room} bytes and then fails as a full disk (or a closed pipe) does. */
final class FullOutputStream extends OutputStream {

    private final long room;
    private final String error;
    private long written;

    FullOutputStream(long room, String error) {
        this.room = room;
        this.error = error;
    }

    static FullOutputStream disk(long room) {
        return new FullOutputStream(room, "No space left on device");
    }

    static FullOutputStream closedPipe(long room) {
        return new FullOutputStream(room, "Broken pipe");
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        if (written + length > room) {
            throw new IOException(error);
        }
        written += length;
    }
}
