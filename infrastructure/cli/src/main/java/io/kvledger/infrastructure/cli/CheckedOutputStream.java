package io.kvledger.infrastructure.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/** Every write and flush either reaches the target or throws an {@link OutputFailure} naming it. */
final class CheckedOutputStream extends FilterOutputStream {

    private final String target;

    CheckedOutputStream(OutputStream out, String target) {
        super(out);
        this.target = target;
    }

    @Override
    public void write(int b) {
        try {
            out.write(b);
        } catch (IOException e) {
            throw new OutputFailure(target, e);
        }
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        try {
            out.write(bytes, offset, length);
        } catch (IOException e) {
            throw new OutputFailure(target, e);
        }
    }

    @Override
    public void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            throw new OutputFailure(target, e);
        }
    }

    @Override
    public void close() {
        try {
            out.close();
        } catch (IOException e) {
            throw new OutputFailure(target, e);
        }
    }
}
