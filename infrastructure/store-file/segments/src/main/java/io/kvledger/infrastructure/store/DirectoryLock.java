package io.kvledger.infrastructure.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.axonframework.eventsourcing.eventstore.EventStoreException;

/**
 * The lock of a store directory ({@code <directory>/store.lock}), held from before the directory is
 * tidied until the store closes. The current segment's own lock does not cover a directory: a roll
 * closes one segment before it creates the next, and opening tidies (removes temporary files and a
 * base without its segment) before it opens a segment, so a second writer would undo a live roll or
 * compression. Nothing else in the process opens this file, so no other descriptor's close can drop
 * the (per process, POSIX) lock.
 */
final class DirectoryLock implements AutoCloseable {

    static final String NAME = "store.lock";

    private final FileChannel channel;

    private DirectoryLock(FileChannel channel) {
        this.channel = channel;
    }

    /**
     * Locks {@code directory}, which exists.
     *
     * @throws StoreLockedException when another store (in any process) has it open
     */
    static DirectoryLock lock(Path directory) {
        Path file = directory.resolve(NAME);
        FileChannel channel;
        try {
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new EventStoreException("cannot lock the store directory " + directory + ": " + StoreFile.reason(e), e);
        }
        try {
            FileLock lock = channel.tryLock();
            if (lock == null) {
                throw new StoreLockedException(directory);
            }
            return new DirectoryLock(channel);
        } catch (OverlappingFileLockException e) {
            closeQuietly(channel);
            throw new StoreLockedException(directory);
        } catch (IOException e) {
            closeQuietly(channel);
            throw new EventStoreException("cannot lock the store directory " + directory + ": " + StoreFile.reason(e), e);
        } catch (RuntimeException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    /** Releases the lock (closing its channel). */
    @Override
    public void close() {
        closeQuietly(channel);
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // the lock goes with the channel either way
        }
    }
}
