package io.kvledger.infrastructure.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
     * keeps the plain one (the compression is redone); a base with no segment (a roll that never
     * created it) is removed, its previous segment being whole.
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
        TreeMap<Long, Segment> segments = new TreeMap<>();
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
                    long first = Long.parseLong(matcher.group(1));
                    boolean compressed = matcher.group(2) != null;
                    Segment known = segments.get(first);
                    if (known == null || known.compressed()) {
                        if (known != null && tidy) {
                            Files.delete(known.file()); // renamed but the plain one not yet removed
                        }
                        segments.put(first, new Segment(first, entry, compressed));
                    } else if (tidy) {
                        Files.delete(entry);
                    }
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
