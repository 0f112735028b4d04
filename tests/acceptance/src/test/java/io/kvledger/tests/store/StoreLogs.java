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
     * One Axon message per step: its first line has the envelope, whose sequence number rises by one
     * at each message; the lines after it, up to the next envelope, have none.
     */
    static void assertStepFraming(List<LogEntry> log) {
        long sequence = -1;
        for (LogEntry entry : log) {
            if (entry.envelope() != null) {
                sequence++;
                org.junit.jupiter.api.Assertions.assertEquals(sequence, entry.envelope().sequenceNumber(),
                        "the Axon sequence number of seq " + entry.seq());
                org.junit.jupiter.api.Assertions.assertEquals("engine", entry.envelope().aggregateId());
                org.junit.jupiter.api.Assertions.assertFalse(entry.raw().path("envelope").has("part"), "format 2 has no parts");
            }
        }
        org.junit.jupiter.api.Assertions.assertNotNull(log.get(0).envelope(), "the first line begins a message");
    }
}
