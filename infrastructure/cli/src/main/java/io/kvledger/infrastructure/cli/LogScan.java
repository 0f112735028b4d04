package io.kvledger.infrastructure.cli;

import io.kvledger.infrastructure.log.CompressedLogs;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;

/**
 * A captured log read once, front to back, one line at a time: memory does not grow with the log.
 * A gzip-compressed log is read as the plain one. Reports progress when asked to.
 */
final class LogScan implements AutoCloseable {

    private final CountingInputStream counting;
    private final EventLogReader reader;
    private final Progress progress;
    private long events;
    private long lastSeq;

    private LogScan(CountingInputStream counting, InputStream text, Progress progress) {
        this.counting = counting;
        this.reader = new EventLogReader(text);
        this.progress = progress;
    }

    /** @param forceProgress report progress even when stderr is not a terminal */
    static LogScan open(Path file, String tool, boolean forceProgress) throws IOException {
        // Progress counts the file's own bytes, compressed or not; the reader gets them decompressed.
        CountingInputStream counting = new CountingInputStream(Inputs.open(file));
        InputStream text = CompressedLogs.decompressed(counting);
        Progress progress = Progress.of(forceProgress, Cli.stderr(), tool, Inputs.size(file));
        return new LogScan(counting, text, progress);
    }

    /** The next entry, or {@code null} at the end. */
    LogEntry next() throws IOException, MalformedLogException {
        LogEntry entry = reader.next();
        if (entry != null) {
            events++;
            lastSeq = entry.seq();
            if (progress != null) {
                progress.update(events, counting.count(), lastSeq);
            }
        }
        return entry;
    }

    @Override
    public void close() throws IOException {
        if (progress != null) {
            progress.finish(events, counting.count(), lastSeq);
        }
        counting.close();
    }
}
