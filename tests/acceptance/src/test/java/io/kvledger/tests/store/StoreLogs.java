package io.kvledger.tests.store;

import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** A store file read as the command line's tools read a log: with the strict reader, to its end. */
final class StoreLogs {

    private StoreLogs() {
    }

    static List<LogEntry> read(Path file) throws IOException, MalformedLogException {
        List<LogEntry> entries = new ArrayList<>();
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file))) {
            EventLogReader reader = new EventLogReader(in);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                entries.add(entry);
            }
        }
        return entries;
    }

    /**
     * One Axon message per step: its lines share the message's sequence number, which rises by one at
     * each message's first line (no {@code part}) and repeats, one part further, on the lines after it.
     */
    static void assertStepFraming(List<LogEntry> log) {
        long sequence = -1;
        long part = 0;
        for (LogEntry entry : log) {
            long linePart = entry.raw().path("envelope").path("part").asLong(0);
            if (linePart == 0) {
                sequence++;
            } else {
                org.junit.jupiter.api.Assertions.assertEquals(part + 1, linePart, "parts follow each other at seq " + entry.seq());
            }
            part = linePart;
            org.junit.jupiter.api.Assertions.assertEquals(sequence, entry.envelope().sequenceNumber(),
                    "the Axon sequence number of seq " + entry.seq());
        }
    }
}
