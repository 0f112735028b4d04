package io.kvledger.infrastructure.cli;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import io.kvledger.infrastructure.store.StoreLog;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * A captured log read once, front to back, one line at a time: memory does not grow with the log.
 * A gzip-compressed log is read as the plain one; a store directory or a single segment as the log of
 * its segments, in order, from the state of its first segment's base ({@link #base()}; see
 * {@link StoreLog}). Reports progress when asked to.
 *
 * <p>On a machine with more than one core the lines are parsed ahead on a second thread while the caller
 * folds ({@link ParseAhead}); what the caller sees is the same either way. {@code -Dkvledger.parseAhead=false}
 * reads on the caller's thread, for comparison.
 */
final class LogScan implements AutoCloseable {

    private final Path file;
    private final CountingBytes counting;
    private final StoreLog log;
    private final EventLogReader reader;
    /** The reader on its own thread, or {@code null} when the caller's thread reads. */
    private final ParseAhead ahead;
    private final Progress progress;
    /**
     * The caller's own hashing of the prompts the parse thread left to it (all of them when the caller's thread
     * reads), with a memo of its own, so the caller's fold does not hash a shared prefix again: half the prompt blocks
     * of s20k repeat one hashed before. {@code null} for {@link Preparation#NONE}, and where the parse thread hashes
     * every prompt.
     */
    private final PromptHashing callerHashing;
    private long events;
    private long lastSeq;
    private boolean ended;

    /**
     * What the parse thread does to each entry before the caller takes it. A prompt it leaves unhashed (or every
     * prompt, read on the caller's thread) is hashed on the caller's thread before the caller takes it, but for
     * {@link #NONE}, whose caller's fold hashes as it folds.
     */
    enum Preparation {
        /** The entries as read. */
        NONE,
        /** Each registered prompt hashed ({@link PromptHashing}): worth it only for a caller slower than the parse. */
        HASH_PROMPTS,
        /**
         * A registered prompt hashed while the caller is behind the parse (two batches wait for it), left to the
         * caller's fold otherwise: for a caller about as fast as the parse, the two threads share the hashing.
         */
        HASH_PROMPTS_WHILE_BEHIND;

        /** The preparation, given whether the caller is behind; it keeps the base's configuration, not the base. */
        Function<BooleanSupplier, UnaryOperator<LogEntry>> of(EngineState base) {
            EngineConfig config = base == null ? null : base.config();
            return switch (this) {
                case NONE -> consumerBehind -> UnaryOperator.identity();
                case HASH_PROMPTS -> consumerBehind -> new PromptHashing(config, () -> true);
                case HASH_PROMPTS_WHILE_BEHIND -> consumerBehind -> new PromptHashing(config, consumerBehind);
            };
        }
    }

    private LogScan(Path file, CountingBytes counting, StoreLog log, Progress progress, boolean parseAhead,
            Preparation preparation) {
        this.file = file;
        this.counting = counting;
        this.log = log;
        this.reader = log.reader();
        this.progress = progress;
        this.ahead = parseAhead ? new ParseAhead(reader, counting::count, preparation.of(log.base())) : null;
        // Not where the parse thread hashes every prompt: the audit's thread, the slower one, would only look.
        boolean callerHashes = preparation == Preparation.HASH_PROMPTS_WHILE_BEHIND
                || preparation == Preparation.HASH_PROMPTS && ahead == null;
        this.callerHashing = callerHashes ? new PromptHashing(log.base() == null ? null : log.base().config(), () -> true) : null;
    }

    /** Whether the log tools parse ahead on a second thread: with two cores or more, unless turned off. */
    static boolean parseAheadByDefault() {
        return !"false".equals(System.getProperty("kvledger.parseAhead")) && Runtime.getRuntime().availableProcessors() > 1;
    }

    /**
     * @param preparation   what the parse thread does to each entry, if a parse thread reads
     * @param forceProgress report progress even when stderr is not a terminal
     */
    static LogScan open(Path file, String tool, Preparation preparation, boolean forceProgress) throws IOException {
        return open(file, tool, preparation, forceProgress, parseAheadByDefault());
    }

    /** @param parseAhead whether a second thread parses the lines ahead of the caller */
    static LogScan open(Path file, String tool, Preparation preparation, boolean forceProgress, boolean parseAhead)
            throws IOException {
        return open(file, tool, preparation, forceProgress, parseAhead, 0);
    }

    /**
     * @param nearSeq for a tool that stops at this seq: a store directory is read from the base of its last
     *                segment that begins at or before it ({@link StoreLog#openNear}); 0 reads the whole log
     */
    static LogScan open(Path file, String tool, Preparation preparation, boolean forceProgress, boolean parseAhead,
            long nearSeq) throws IOException {
        // Progress counts the file's own bytes, compressed or not; the reader gets them decompressed.
        CountingBytes counting = new CountingBytes();
        StoreLog log;
        try {
            log = StoreLog.openNear(file, nearSeq, counting::wrap);
        } catch (NoSuchFileException e) {
            throw new InputFailure(file, new IOException(java.nio.file.Files.isDirectory(file)
                    ? "it is a directory without store segments (segment-<seq>.jsonl[.gz]), not a log" : "no such file"));
        }
        Progress progress = Progress.of(forceProgress, Cli.stderr(), tool, log.bytes());
        return new LogScan(file, counting, log, progress, parseAhead, preparation);
    }

    /** The seq the state of {@link #base()} stands after: 0 for a log from its start. */
    long seqBefore() {
        return log.seqBefore();
    }

    /** The state before the first line read: {@code null} for a log from its start, else its first segment's base. */
    EngineState base() {
        return log.base();
    }

    /** The lines before {@link #base()} that a scan opened near a seq passed over, unread (0 for a whole log). */
    long linesPassedOver() {
        return log.linesPassedOver();
    }

    /** The next entry, or {@code null} at the end. */
    LogEntry next() throws IOException, MalformedLogException {
        LogEntry entry = ahead != null ? ahead.next() : reader.next();
        if (entry != null && callerHashing != null) {
            entry = callerHashing.apply(entry); // follows each configuration; hashes what is not hashed yet
        }
        if (entry != null) {
            events++;
            lastSeq = entry.seq();
            if (progress != null) {
                progress.update(events, position(), lastSeq);
            }
        } else if (!ended) {
            ended = true;
            // A store read to its end stops at its last whole step, as opening it does: say what was left out.
            log.tornStep().ifPresent(torn -> Cli.say(file + ": " + torn.describe()));
        }
        return entry;
    }

    /** The bytes of the files read up to the entry last returned, as near as reading ahead lets us know. */
    private long position() {
        return ahead != null ? ahead.position() : counting.count();
    }

    @Override
    public void close() throws IOException {
        try {
            if (ahead != null) {
                ahead.close(); // the thread is stopped before its input is closed under it
            }
            if (progress != null) {
                progress.finish(events, ahead != null && ahead.position() > 0 ? ahead.position() : counting.count(), lastSeq);
            }
        } finally {
            log.close();
        }
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
