package io.kvledger.infrastructure.cli;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** Opens an input file so that every failure to read it names the file: exit 2, never "internal error". */
final class Inputs {

    private Inputs() {
    }

    static InputStream open(Path file) throws InputFailure {
        if (Files.isDirectory(file)) {
            throw new InputFailure(file, new IOException("it is a directory, not a file"));
        }
        InputStream in;
        try {
            in = Files.newInputStream(file);
        } catch (NoSuchFileException e) {
            throw new InputFailure(file, new IOException("no such file"));
        } catch (IOException e) {
            throw new InputFailure(file, e);
        }
        return new FilterInputStream(in) {
            @Override
            public int read() throws IOException {
                try {
                    return super.read();
                } catch (InputFailure e) {
                    throw e;
                } catch (IOException e) {
                    throw new InputFailure(file, e);
                }
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                try {
                    return super.read(buffer, offset, length);
                } catch (IOException e) {
                    throw new InputFailure(file, e);
                }
            }
        };
    }

    /** The file's size for progress, 0 when it cannot be known (a pipe, a device). */
    static long size(Path file) {
        try {
            return Files.isRegularFile(file) ? Files.size(file) : 0;
        } catch (IOException e) {
            return 0;
        }
    }
}
