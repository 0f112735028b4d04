package io.kvledger.infrastructure.store;

import io.kvledger.infrastructure.log.CompressedLogs;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The files of a store directory: segment {@code segment-<first seq, 20 digits>.jsonl} (or, closed and
 * compressed, {@code .jsonl.gz}), beside it {@code <segment>.jsonl.base} (the state it begins from;
 * every segment but the first has one) and {@code <segment>.jsonl.snapshot} (the latest snapshot
 * within it). Names sort in seq order. Also what opening tidies after a crash, and compression.
 */
final class SegmentFiles {

    private static final Logger LOG = LoggerFactory.getLogger(SegmentFiles.class);
    private static final Pattern NAME = Pattern.compile("segment-(\\d{20})\\.jsonl(\\.gz)?");
    static final String GZ = ".gz";

    /** One segment: its first seq, and its file (plain or compressed). */
    record Segment(long firstSeq, Path file, boolean compressed) {
        /** The plain name, which the sidecars are named after (also when the segment is compressed). */
        Path plain() {
            return compressed ? file.resolveSibling(nameOf(firstSeq)) : file;
        }

        long bytes() {
            return size(file) + size(SnapshotFile.basePathOf(plain())) + size(SnapshotFile.pathOf(plain()));
        }
    }

    private SegmentFiles() {
    }

    static String nameOf(long firstSeq) {
        return String.format("segment-%020d.jsonl", firstSeq);
    }

    /**
     * The directory's segments in seq order, after tidying what a crash can leave: temporary files
     * (a compression or snapshot not renamed yet) are removed; a segment both plain and compressed
     * keeps the compressed one when it decompresses whole into the plain one's bytes (a crash between
     * the rename and the removal), else the plain one (compressed again later); a base with no segment
     * (a roll that never created it) is removed, its previous segment being whole. Every reader of a
     * directory lists it the same way ({@link #list}).
     */
    static List<Segment> openDirectory(Path directory) throws IOException {
        Files.createDirectories(directory);
        return scan(directory, true);
    }

    /** The directory's segments in seq order, as {@link #openDirectory} would find them, changing nothing. */
    static List<Segment> list(Path directory) throws IOException {
        return scan(directory, false);
    }

    /** Whether {@code file}'s name is a segment's. */
    static boolean isSegment(Path file) {
        return NAME.matcher(file.getFileName().toString()).matches();
    }

    static long firstSeqOf(Path segment) {
        Matcher matcher = NAME.matcher(segment.getFileName().toString());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("not a segment's name: " + segment);
        }
        return Long.parseLong(matcher.group(1));
    }

    private static List<Segment> scan(Path directory, boolean tidy) throws IOException {
        TreeMap<Long, Path> plain = new TreeMap<>();
        TreeMap<Long, Path> compressed = new TreeMap<>();
        List<Path> bases = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(directory)) {
            for (Path entry : entries) {
                String name = entry.getFileName().toString();
                Matcher matcher = NAME.matcher(name);
                if (name.endsWith(".tmp")) {
                    if (tidy) {
                        Files.deleteIfExists(entry);
                    }
                } else if (name.endsWith(".base")) {
                    bases.add(entry);
                } else if (matcher.matches()) {
                    (matcher.group(2) != null ? compressed : plain).put(Long.parseLong(matcher.group(1)), entry);
                }
            }
        }
        TreeMap<Long, Segment> segments = new TreeMap<>();
        plain.forEach((first, file) -> segments.put(first, new Segment(first, file, false)));
        for (var entry : compressed.entrySet()) {
            long first = entry.getKey();
            Path gz = entry.getValue();
            Path both = plain.get(first);
            if (both == null) {
                segments.put(first, new Segment(first, gz, true));
            } else if (sameContent(gz, both)) {
                // A crash between compression's rename and the plain file's removal: the compressed copy is
                // whole (renamed only once forced) and holds the same bytes, so it wins and the plain one goes.
                segments.put(first, new Segment(first, gz, true));
                if (tidy) {
                    Files.delete(both);
                }
            } else {
                // A compressed copy that is not whole or not the plain one's bytes (a machine crash under
                // fsync=never, a damaged file): the plain segment it was made from wins; it is compressed again.
                LOG.warn("kvledger: store {}: {} is not a whole copy of {}; {}", directory, gz.getFileName(),
                        both.getFileName(), tidy ? "removed, the plain segment is kept" : "reading the plain segment");
                if (tidy) {
                    Files.delete(gz);
                }
            }
        }
        for (Path base : bases) {
            String segment = base.getFileName().toString().replace(".base", "");
            Matcher matcher = NAME.matcher(segment);
            if (tidy && (!matcher.matches() || !segments.containsKey(Long.parseLong(matcher.group(1))))) {
                Files.deleteIfExists(base);
            }
        }
        return new ArrayList<>(segments.values());
    }

    /** Whether {@code gz} decompresses whole (its gzip trailer's CRC and length checked) into {@code plain}'s bytes. */
    private static boolean sameContent(Path gz, Path plain) {
        try (InputStream a = new GZIPInputStream(Files.newInputStream(gz), 1 << 16);
                InputStream b = new BufferedInputStream(Files.newInputStream(plain), 1 << 16)) {
            byte[] left = new byte[1 << 16];
            byte[] right = new byte[1 << 16];
            while (true) {
                int n = a.readNBytes(left, 0, left.length);
                int m = b.readNBytes(right, 0, n == 0 ? right.length : n);
                if (n != m || !Arrays.equals(left, 0, n, right, 0, m)) {
                    return false;
                }
                if (n == 0) {
                    return true;
                }
            }
        } catch (IOException e) {
            return false; // cut or damaged gzip data
        }
    }

    /**
     * A segment file's bytes, decompressed, failures naming the file. A plain segment that was compressed
     * since it was listed (its plain file removed once the compressed one was in place, by the writer's
     * background thread or its tidying on open) is read from its compressed file: a reader never races them.
     */
    static InputStream openDecompressed(Path file, UnaryOperator<InputStream> raw) throws IOException {
        InputStream in;
        try {
            in = Files.newInputStream(file);
        } catch (NoSuchFileException e) {
            if (!isSegment(file) || file.getFileName().toString().endsWith(GZ)) {
                throw e;
            }
            file = file.resolveSibling(file.getFileName() + GZ);
            in = Files.newInputStream(file);
        }
        return CompressedLogs.decompressed(raw.apply(in), file.toString());
    }

    /**
     * Compresses a closed segment: gzip into {@code <segment>.gz.tmp}, forced, renamed to
     * {@code <segment>.gz}, the directory forced, and only then the plain file removed. A crash at any
     * point leaves the plain segment or the compressed one, whole ({@link #openDirectory}).
     */
    static Segment compress(Segment segment, boolean durable) throws IOException {
        Path plain = segment.file();
        Path target = plain.resolveSibling(plain.getFileName() + GZ);
        Path temporary = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileOutputStream file = new FileOutputStream(temporary.toFile());
                InputStream in = Files.newInputStream(plain)) {
            GZIPOutputStream gzip = new GZIPOutputStream(new BufferedOutputStream(file, 1 << 16), 1 << 16);
            try {
                in.transferTo(gzip);
                gzip.finish(); // the trailer, flushed to the file; then forced before the rename
                gzip.flush();
                if (durable) {
                    file.getChannel().force(true);
                }
            } finally {
                gzip.close(); // ends the deflater's native memory
            }
        }
        try {
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(temporary, target);
        }
        if (durable) {
            StoreFile.forceDirectory(target);
        }
        Files.delete(plain);
        if (durable) {
            StoreFile.forceDirectory(target);
        }
        LOG.debug("{}: compressed to {} bytes", target, size(target));
        return new Segment(segment.firstSeq(), target, true);
    }

    /** Removes a segment and its sidecars, the segment first (a base left alone is removed on open). */
    static void delete(Segment segment) throws IOException {
        Files.deleteIfExists(segment.file());
        Files.deleteIfExists(SnapshotFile.basePathOf(segment.plain()));
        Files.deleteIfExists(SnapshotFile.pathOf(segment.plain()));
    }

    static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }
}
