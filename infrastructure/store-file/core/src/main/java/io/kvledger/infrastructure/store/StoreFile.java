package io.kvledger.infrastructure.store;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.function.Consumer;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The file under a store: opened, locked, scanned (and repaired) once, then written at its end and
 * read by position. Reads never move the channel's position, so they may run beside appends.
 */
final class StoreFile implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StoreFile.class);

    private final Path path;
    private final FileChannel channel;
    private final FileLock lock; // held while open; closing the channel releases it
    /**
     * The config of the log the file holds or continues, which a reader from the middle of the file needs
     * (its groups shape the per-group fields): a snapshot's or a base's, or else the file's first line's,
     * read when first asked for.
     */
    private volatile EngineConfig config;

    private StoreFile(Path path, FileChannel channel, FileLock lock) {
        this.path = path;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Opens and locks the file, creating it and its missing directories when missing (then forcing its
     * directory unless {@code durable} is false), and runs the scan, cutting a torn end.
     */
    static Opened open(Path path, boolean durable) {
        return open(path, durable, null);
    }

    /**
     * As {@link #open(Path, boolean)}, for a segment that begins after {@code base} (its first line is
     * seq {@code base.seq() + 1}): without a valid snapshot of its own the scan starts from the base.
     */
    static Opened open(Path path, boolean durable, SnapshotFile.Snapshot base) {
        boolean created = !Files.exists(path);
        FileChannel channel;
        try {
            Path parent = path.toAbsolutePath().getParent();
            if (created && parent != null) {
                Files.createDirectories(parent);
            }
            channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new EventStoreException("cannot open the store " + path + ": " + reason(e), e);
        }
        try {
            StoreFile file = new StoreFile(path, channel, lock(channel, path));
            if (created && durable) {
                forceDirectory(path);
            }
            SnapshotFile.Loaded snapshot = SnapshotFile.read(path, channel);
            if (snapshot.rejected() != null) {
                LOG.warn("{}; opening from the events instead", snapshot.rejected());
            }
            if (snapshot.snapshot() == null && base != null) {
                snapshot = new SnapshotFile.Loaded(base, snapshot.rejected());
            }
            SnapshotFile.Snapshot start = snapshot.snapshot();
            if (start != null && start.offset() > 0) {
                // The lines before the snapshot are not read again, but their checksums are checked: a store whose
                // history was changed is refused here, as every reader refuses it, rather than appended to.
                HistoryChecksums.check(channel, path, start.offset(), base == null ? 0 : base.seq());
            }
            file.config = start == null ? null : start.config();
            StoreScan.Result scan = start == null ? StoreScan.run(channel, path)
                    : StoreScan.run(channel, path, new StoreScan.Start(start.seq(), start.offset(), start.engineId(),
                            start.sequenceNumber() + 1, file.config));
            if (scan.report().recovered()) {
                channel.truncate(scan.end());
                channel.force(true);
                LOG.warn("{}: recovered from a torn end: {}", path, scan.report());
            } else if (durable) {
                channel.force(false); // what an earlier process wrote but never forced counts as forced from here on
            }
            return new Opened(file, scan, snapshot);
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel, e);
            if (e instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new EventStoreException("cannot read the store " + path + ": " + reason((IOException) e), e);
        }
    }

    /** An open-time failure in words: the file it concerns and what is wrong, not an exception's class. */
    static String reason(IOException e) {
        if (e instanceof java.nio.file.FileAlreadyExistsException exists) {
            return exists.getFile() + " exists and is not a directory";
        }
        if (e instanceof java.nio.file.NoSuchFileException missing) {
            return missing.getFile() + ": no such file or directory";
        }
        if (e instanceof java.nio.file.AccessDeniedException denied) {
            return denied.getFile() + ": permission denied";
        }
        if (e instanceof java.nio.file.FileSystemException fs) {
            return fs.getFile() + ": " + (fs.getReason() == null ? "cannot be used" : fs.getReason());
        }
        return e.getMessage() == null ? "an I/O error" : e.getMessage();
    }

    record Opened(StoreFile file, StoreScan.Result scan, SnapshotFile.Loaded snapshot) {
    }

    Path path() {
        return path;
    }

    FileChannel channel() {
        return channel;
    }

    /** Writes all of {@code buffer}'s remaining bytes at {@code position}; returns the position after them. */
    long write(ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
        }
        return at;
    }

    void truncate(long size) throws IOException {
        channel.truncate(size);
    }

    /** Forces the file's data (and its size) to the disk. */
    void force() throws IOException {
        channel.force(false);
    }

    /** The entries of {@code [from, until)}, read lazily; the line at {@code from} has seq {@code seqBefore + 1}. */
    Stream<LogEntry> entries(long from, long seqBefore, long until) {
        if (from >= until) {
            return Stream.empty();
        }
        // In a store a line's number is its seq, so the reader numbers lines as the file does.
        EventLogReader reader = EventLogReader.continuing(new ChannelInputStream(channel, from, until), seqBefore, seqBefore,
                        from == 0 && seqBefore == 0 ? null : config())
                .checking(new StepChecksums(from == 0));
        Spliterator<LogEntry> lines = new Spliterators.AbstractSpliterator<>(Long.MAX_VALUE,
                Spliterator.ORDERED | Spliterator.NONNULL) {
            @Override
            public boolean tryAdvance(Consumer<? super LogEntry> action) {
                LogEntry entry = next(reader);
                if (entry == null) {
                    return false;
                }
                action.accept(entry);
                return true;
            }
        };
        return StreamSupport.stream(lines, false);
    }

    /** The config of the log the file holds or continues (see {@link #config}). */
    EngineConfig config() {
        EngineConfig known = config;
        if (known == null) {
            known = firstLineConfig();
            config = known;
        }
        return known;
    }

    /** The config of the file's first line, an {@code EngineConfigured} (a store's first event always is one). */
    private EngineConfig firstLineConfig() {
        LogEntry first;
        try {
            first = new EventLogReader(new ChannelInputStream(channel, 0, channel.size())).next();
        } catch (MalformedLogException e) {
            throw StoreCorruptedException.of(path, e, "changed since the store opened it: ");
        } catch (IOException e) {
            throw new EventStoreException("cannot read the store " + path + ": " + e, e);
        }
        if (!(first.event() instanceof EngineConfigured configured)) {
            throw new StoreCorruptedException(path, 1, "the first line is not EngineConfigured, but " + first.type());
        }
        return configured.config();
    }

    private LogEntry next(EventLogReader reader) {
        try {
            return reader.next();
        } catch (MalformedLogException e) {
            throw StoreCorruptedException.of(path, e, "changed since the store opened it: ");
        } catch (IOException e) {
            throw new EventStoreException("cannot read the store " + path + ": " + e, e);
        }
    }

    /** Closes the channel, which releases the lock. */
    @Override
    public void close() {
        closeQuietly(channel, null);
    }

    private static FileLock lock(FileChannel channel, Path path) throws IOException {
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new StoreLockedException(path);
            }
            return lock;
        } catch (OverlappingFileLockException e) {
            throw new StoreLockedException(path);
        }
    }

    /** A new file's name is durable only once its directory is forced. Not every platform allows it. */
    static void forceDirectory(Path path) {
        Path directory = path.toAbsolutePath().getParent();
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            LOG.debug("cannot force directory {}: {}", directory, e.toString());
        }
    }

    private static void closeQuietly(FileChannel channel, Exception primary) {
        try {
            channel.close();
        } catch (IOException e) {
            if (primary != null) {
                primary.addSuppressed(e);
            }
        }
    }
}
