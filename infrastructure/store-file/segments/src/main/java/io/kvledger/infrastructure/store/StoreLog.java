package io.kvledger.infrastructure.store;

import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.TornStep;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * What the log tools read, whatever they are given: a plain or gzip-compressed log or store file, a
 * store directory (its segments in order, from the first kept one), or a single segment. A directory
 * whose first segments retention dropped, and a segment other than the first, begin after their base:
 * the tools fold from {@link #base()} and read the lines from seq {@link #seqBefore()} + 1 on.
 * Nothing is changed on disk (a directory being written may be read; its tidying is the store's).
 */
public final class StoreLog implements AutoCloseable {

    private final List<Path> files;
    private final InputStream text;
    private final long seqBefore;
    private final EngineState base;
    private final long linesPassedOver;
    private EventLogReader reader;

    private StoreLog(List<Path> files, InputStream text, long seqBefore, EngineState base, long linesPassedOver) {
        this.files = files;
        this.text = text;
        this.seqBefore = seqBefore;
        this.base = base;
        this.linesPassedOver = linesPassedOver;
    }

    /**
     * Opens {@code path} for reading front to back, each file's raw bytes passed through {@code raw}
     * (to count them) before they are decompressed.
     *
     * @throws NoSuchFileException when there is nothing at {@code path}, or a directory holds no segment
     * @throws IOException         when a file or a segment's base cannot be read
     */
    public static StoreLog open(Path path, UnaryOperator<InputStream> raw) throws IOException {
        return open(path, 0, raw);
    }

    /**
     * Opens {@code path} for reading from the nearest state at or before the line of seq {@code atSeq}: in a
     * store directory, the base of the last segment that begins at or before it (a later base that cannot be
     * read is passed over for an earlier one), so a tool that stops at {@code atSeq} folds only from there;
     * elsewhere, or with {@code atSeq} 0, as {@link #open(Path, UnaryOperator)}. The lines of the segments
     * passed over are not read: {@link #linesPassedOver()} counts them.
     */
    public static StoreLog openNear(Path path, long atSeq, UnaryOperator<InputStream> raw) throws IOException {
        return open(path, atSeq, raw);
    }

    private static StoreLog open(Path path, long atSeq, UnaryOperator<InputStream> raw) throws IOException {
        if (!Files.exists(path)) {
            throw new NoSuchFileException(path.toString());
        }
        List<Path> files;
        if (Files.isDirectory(path)) {
            files = SegmentFiles.list(path).stream().map(SegmentFiles.Segment::file).toList();
            if (files.isEmpty()) {
                throw new NoSuchFileException(path + " (a directory without store segments)");
            }
        } else {
            files = List.of(path);
        }
        long firstKeptSeq = SegmentFiles.isSegment(files.get(0)) ? SegmentFiles.firstSeqOf(files.get(0)) : 1;
        for (int from = files.size() - 1; atSeq > 0 && from > 0; from--) {
            long firstSeq = SegmentFiles.firstSeqOf(files.get(from));
            if (firstSeq > atSeq) {
                continue;
            }
            EngineState base;
            try {
                base = baseOf(files.get(from), firstSeq);
            } catch (IOException unreadable) {
                continue; // an earlier base, or the first kept segment's, will do
            }
            List<Path> read = files.subList(from, files.size());
            return new StoreLog(read, lazyText(read, raw), firstSeq - 1, base, firstSeq - firstKeptSeq);
        }
        EngineState base = firstKeptSeq > 1 ? baseOf(files.get(0), firstKeptSeq) : null;
        return new StoreLog(files, lazyText(files, raw), firstKeptSeq - 1, base, 0);
    }

    /** The state before segment {@code segment}, which begins at {@code firstSeq}, read from its base. */
    private static EngineState baseOf(Path segment, long firstSeq) throws IOException {
        Path plain = segment.getFileName().toString().endsWith(SegmentFiles.GZ)
                ? segment.resolveSibling(SegmentFiles.nameOf(firstSeq)) : segment;
        SnapshotFile.Snapshot snapshot = SnapshotFile.readBase(plain);
        if (snapshot.seq() != firstSeq - 1) {
            throw new IOException(SnapshotFile.basePathOf(plain) + " is the state after seq " + snapshot.seq()
                    + ", but " + segment + " begins at seq " + firstSeq);
        }
        return snapshot.state();
    }

    private static InputStream lazyText(List<Path> files, UnaryOperator<InputStream> raw) {
        return new SequenceInputStream(Collections.enumeration(new AbstractLazyList(files.iterator(), raw)));
    }

    /**
     * The reader of the lines: a plain log from its first line, or continuing after {@link #seqBefore()} in
     * the log of the base's config (so a grouped log's segments read in its groups' shapes).
     */
    public EventLogReader reader() {
        EventLogReader reader = EventLogReader.continuing(text, seqBefore, seqBefore, base == null ? null : base.config());
        // A store's steps are checked as on open, each whole before any of its lines is returned, and a torn
        // end is left out as opening cuts it; a plain log has no steps and is read line by line.
        this.reader = reader.wholeSteps(new StepChecksums(true));
        return this.reader;
    }

    /** What the reader left out at the end of a store (a step whose write was not finished), if anything. */
    public Optional<TornStep> tornStep() {
        return Optional.ofNullable(reader == null ? null : reader.tornStep());
    }

    /** The files read, in order. */
    public List<Path> files() {
        return files;
    }

    /** The bytes of the files read, as they are on disk. */
    public long bytes() {
        long total = 0;
        for (Path file : files) {
            total += SegmentFiles.size(file);
        }
        return total;
    }

    /** The seq before the first line read: 0 for a log from its start, else the base's. */
    public long seqBefore() {
        return seqBefore;
    }

    /**
     * The lines of the store's first kept segments that {@link #openNear} passed over (one line a seq), so
     * not read: 0 when reading from the first kept segment.
     */
    public long linesPassedOver() {
        return linesPassedOver;
    }

    /** The state before the first line read; {@code null} for a log from its start. */
    public EngineState base() {
        return base;
    }

    @Override
    public void close() throws IOException {
        text.close();
    }

    /** The files' decompressed streams, each opened only when the one before it is used up. */
    private static final class AbstractLazyList extends java.util.AbstractList<InputStream> {
        private final List<InputStream> opened = new ArrayList<>();

        AbstractLazyList(Iterator<Path> files, UnaryOperator<InputStream> raw) {
            files.forEachRemaining(file -> opened.add(new LazyStream(file, raw)));
        }

        @Override
        public InputStream get(int index) {
            return opened.get(index);
        }

        @Override
        public int size() {
            return opened.size();
        }
    }

    private static final class LazyStream extends InputStream {
        private final Path file;
        private final UnaryOperator<InputStream> raw;
        private InputStream in;

        LazyStream(Path file, UnaryOperator<InputStream> raw) {
            this.file = file;
            this.raw = raw;
        }

        private InputStream in() throws IOException {
            if (in == null) {
                in = SegmentFiles.openDecompressed(file, raw);
            }
            return in;
        }

        @Override
        public int read() throws IOException {
            return in().read();
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            return in().read(buffer, offset, length);
        }

        @Override
        public void close() throws IOException {
            if (in != null) {
                in.close();
            }
        }
    }
}
