package io.kvledger.infrastructure.cli;

import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import io.kvledger.infrastructure.store.StoreLog;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A captured log read once, front to back, one line at a time: memory does not grow with the log.
 * A gzip-compressed log is read as the plain one; a store directory or a single segment as the log of
 * its segments, in order, from the state of its first segment's base ({@link #base()}; see
 * {@link StoreLog}). Reports progress when asked to.
 */
final class LogScan implements AutoCloseable {

    private final CountingBytes counting;
    private final StoreLog log;
    private final EventLogReader reader;
    private final Progress progress;
    private long events;
    private long lastSeq;

    private LogScan(CountingBytes counting, StoreLog log, Progress progress) {
        this.counting = counting;
        this.log = log;
        this.reader = log.reader();
        this.progress = progress;
    }

    /** @param forceProgress report progress even when stderr is not a terminal */
    static LogScan open(Path file, String tool, boolean forceProgress) throws IOException {
        // Progress counts the file's own bytes, compressed or not; the reader gets them decompressed.
        CountingBytes counting = new CountingBytes();
        StoreLog log;
        try {
            log = StoreLog.open(file, counting::wrap);
        } catch (NoSuchFileException e) {
            throw new InputFailure(file, new IOException(java.nio.file.Files.isDirectory(file)
                    ? "it is a directory without store segments (segment-<seq>.jsonl[.gz]), not a log" : "no such file"));
        }
        Progress progress = Progress.of(forceProgress, Cli.stderr(), tool, log.bytes());
        return new LogScan(counting, log, progress);
    }

    /** The state before the first line read: {@code null} for a log from its start, else its first segment's base. */
    EngineState base() {
        return log.base();
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
        log.close();
    }

    /** The raw bytes read from every file, before decompression. */
    private static final class CountingBytes {
        private final java.util.List<CountingInputStream> streams = new java.util.ArrayList<>();

        java.io.InputStream wrap(java.io.InputStream raw) {
            CountingInputStream counting = new CountingInputStream(raw);
            streams.add(counting);
            return counting;
        }

        long count() {
            long total = 0;
            for (CountingInputStream stream : streams) {
                total += stream.count();
            }
            return total;
        }
    }
}
