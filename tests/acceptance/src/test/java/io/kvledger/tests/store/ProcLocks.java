package io.kvledger.tests.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What {@code /proc/locks} says of a file: whether a process holds a POSIX lock on it (Linux). */
final class ProcLocks {

    private ProcLocks() {
    }

    /** Whether {@code pid} holds a POSIX lock on {@code file} ({@code 1: POSIX ADVISORY WRITE PID MAJ:MIN:INODE 0 EOF}). */
    static boolean holds(long pid, Path file) throws IOException {
        long inode = ((Number) Files.getAttribute(file, "unix:ino")).longValue();
        for (String line : Files.readAllLines(Path.of("/proc/locks"))) {
            String[] fields = line.trim().split("\\s+");
            if (fields.length < 6 || !fields[1].equals("POSIX") || fields[1].equals("->")) {
                continue;
            }
            String[] device = fields[5].split(":");
            if (fields[4].equals(Long.toString(pid)) && device.length == 3 && Long.parseLong(device[2]) == inode) {
                return true;
            }
        }
        return false;
    }
}
