package io.kvledger.infrastructure.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The temporaries of an output ({@code .NAME.<n>.tmp}, see {@link Output}) that a killed run left: a
 * run locks its temporary while it writes it, so one that nobody holds is a dead run's, and the next
 * run to the same output removes it (issue 23: {@code kill -9} of {@code run -o OUT} left 25 MB that
 * nothing removed). SIGINT and SIGTERM leave none already ({@code deleteOnExit}).
 */
final class StaleTemporaries {

    private StaleTemporaries() {
    }

    /** Removes the temporaries of {@code file} in {@code directory} that no live run holds. */
    static void remove(Path directory, Path file) {
        String prefix = "." + file.getFileName() + ".";
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory, entry -> {
            String name = entry.getFileName().toString();
            return name.startsWith(prefix) && name.endsWith(".tmp")
                    && name.substring(prefix.length(), name.length() - 4).chars().allMatch(Character::isDigit);
        })) {
            for (Path entry : entries) {
                removeIfStale(entry);
            }
        } catch (IOException e) {
            // tidying is best effort: the run itself does not depend on it
        }
    }

    private static void removeIfStale(Path temporary) {
        try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
            FileLock lock = channel.tryLock();
            if (lock != null) {
                Files.deleteIfExists(temporary); // nobody writes it: its run is gone
            }
        } catch (OverlappingFileLockException e) {
            // this process writes it
        } catch (IOException e) {
            // not ours to remove, or gone already
        }
    }

    /** Locks a run's own temporary for as long as {@code channel} is open, so that no other run removes it. */
    static void hold(FileChannel channel) {
        try {
            channel.tryLock();
        } catch (IOException | OverlappingFileLockException e) {
            // unlocked, it is still written: only a later run's tidying could take it for a dead one
        }
    }
}
