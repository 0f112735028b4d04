package io.kvledger.infrastructure.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.channels.FileChannel;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Where a command writes: stdout, or a file written through a temporary file beside it that is renamed
 * over the file only by {@link #commit()}. So a refused or failed run leaves an existing file as it
 * was, and an interrupted one never leaves half a file where a good one was. Every write is checked
 * ({@link CheckedOutputStream}); text is encoded strictly, so nothing is ever silently changed.
 * Missing parent directories are created, as {@code --store} does.
 */
class Output implements AutoCloseable {

    private final Path target;
    private final Path temporary;
    private final FileChannel channel;
    private final CheckedOutputStream stream;
    private boolean committed;

    private Output(Path target, Path temporary, FileChannel channel, CheckedOutputStream stream) {
        this.target = target;
        this.temporary = temporary;
        this.channel = channel;
        this.stream = stream;
    }

    /** {@code file}, or stdout when it is {@code null}. */
    static Output to(Path file) {
        return file == null ? stdout() : file(file);
    }

    static Output stdout() {
        return new Output(null, null, null, new CheckedOutputStream(Cli.stdout(), "standard output"));
    }

    static Output file(Path given) {
        String name = given.toString();
        if (Files.isDirectory(given)) {
            throw new OutputFailure(name, new IOException("it is a directory"));
        }
        if (Files.exists(given) && !Files.isRegularFile(given)) {
            return device(given); // /dev/null, a FIFO: written in place, never replaced by a rename
        }
        Path file;
        try {
            file = Files.exists(given) ? given.toRealPath() : given; // through a symbolic link, not over it
        } catch (IOException e) {
            throw new OutputFailure(name, e);
        }
        Path parent = file.toAbsolutePath().getParent();
        Path temporary;
        FileChannel channel;
        try {
            Files.createDirectories(parent);
            StaleTemporaries.remove(parent, file); // a killed run's, never a live one's
            try {
                temporary = Files.createTempFile(parent, "." + file.getFileName() + ".", ".tmp");
            } catch (java.nio.file.NoSuchFileException e) {
                // The directory is there but takes no new file (/proc, /sys): say so, not "no such file".
                throw new IOException("cannot create a file in " + parent + " (the output is written beside it first,"
                        + " then renamed over it), which takes no new files", e);
            }
            temporary.toFile().deleteOnExit(); // a run stopped by SIGINT or SIGTERM leaves no temporary file
            permissions(file, temporary);
            channel = FileChannel.open(temporary, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
            StaleTemporaries.hold(channel);
        } catch (IOException e) {
            throw new OutputFailure(name, e);
        }
        return new Output(file, temporary, channel, new CheckedOutputStream(java.nio.channels.Channels.newOutputStream(channel), name));
    }

    /** The file keeps its permissions; a new one gets rw-r--r--, not the private ones of a temporary file. */
    private static void permissions(Path file, Path temporary) throws IOException {
        if (!temporary.getFileSystem().supportedFileAttributeViews().contains("posix")) {
            return;
        }
        Files.setPosixFilePermissions(temporary, Files.exists(file) ? Files.getPosixFilePermissions(file)
                : java.nio.file.attribute.PosixFilePermissions.fromString("rw-r--r--"));
    }

    private static Output device(Path file) {
        try {
            OutputStream out = Files.newOutputStream(file, StandardOpenOption.WRITE);
            return new Output(null, null, null, new CheckedOutputStream(out, file.toString())) {
                @Override
                String name() {
                    return file.toString();
                }

                @Override
                public void close() {
                    stream().close();
                }
            };
        } catch (IOException e) {
            throw new OutputFailure(file.toString(), e);
        }
    }

    String name() {
        return target == null ? "standard output" : target.toString();
    }

    /** The checked bytes; close it only through {@link #close()}. */
    CheckedOutputStream stream() {
        return stream;
    }

    /** A buffered UTF-8 writer that refuses what UTF-8 cannot hold instead of writing {@code ?}. */
    Writer writer() {
        Writer encoded = new BufferedWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)), 1 << 16);
        String name = name();
        return new Writer() {
            @Override
            public void write(char[] chars, int offset, int length) {
                try {
                    encoded.write(chars, offset, length);
                } catch (IOException e) {
                    throw new OutputFailure(name, e);
                }
            }

            @Override
            public void write(String text, int offset, int length) {
                try {
                    encoded.write(text, offset, length);
                } catch (IOException e) {
                    throw new OutputFailure(name, e);
                }
            }

            @Override
            public void flush() {
                try {
                    encoded.flush();
                } catch (IOException e) {
                    throw new OutputFailure(name, e);
                }
            }

            @Override
            public void close() {
                flush(); // the output is closed by its owner, once
            }
        };
    }

    /** A print writer over {@link #writer()}: its write errors are thrown, not swallowed. */
    PrintWriter printWriter() {
        return new PrintWriter(writer(), false);
    }

    /** Makes the written output the file's content: forced to disk, then renamed over it. */
    void commit() {
        stream.flush();
        if (target != null) {
            try {
                channel.force(true);
                channel.close();
                Files.move(temporary, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new OutputFailure(name(), e);
            }
        }
        committed = true;
    }

    /** Without a commit, a file's temporary is deleted and the file left as it was. */
    @Override
    public void close() {
        if (target == null || committed) {
            return;
        }
        try {
            channel.close();
        } catch (IOException ignored) {
            // the temporary goes anyway
        }
        try {
            Files.deleteIfExists(temporary);
        } catch (IOException ignored) {
            // deleteOnExit is the last resort
        }
    }
}
