package io.kvledger.infrastructure.store;

import io.kvledger.application.spi.LedgerStoreProvider;
import io.kvledger.application.spi.OpenStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ServiceLoader;
import java.util.regex.Pattern;

/**
 * The one reading of a store location, as every command that takes one ({@code run}, {@code serve},
 * {@code export}, and the log tools) reads it:
 * <ul>
 *   <li>{@code scheme:...} is a location opened by the module of its scheme ({@code jdbc:postgresql://...},
 *       {@code file:PATH}, {@code file:DIR/?segmentBytes=N}); {@code C:\...} is a path, not a scheme;</li>
 *   <li>a path that ends with {@code /} is a store directory (docs/embedded-store.md), created when missing;</li>
 *   <li>any other path is a single store file; one that names an existing directory is refused with the
 *       two ways to say a directory ({@code DIR/} or {@code file:DIR/}), so a typo never writes a store
 *       somewhere else.</li>
 * </ul>
 */
public final class StoreLocation {

    /** A scheme has two characters at least, so that a Windows drive ({@code C:}) stays a path. */
    private static final Pattern SCHEME = Pattern.compile("[a-zA-Z][a-zA-Z0-9+.-]+:.*");
    private static final String FILE = "file:";

    /** What a location names. */
    public enum Kind {
        /** A single JSON Lines store file. */
        FILE,
        /** A store directory of segments. */
        DIRECTORY,
        /** A location of another scheme (a database), opened by its module. */
        OTHER
    }

    private final String written;
    private final Kind kind;
    private final Path path;

    private StoreLocation(String written, Kind kind, Path path) {
        this.written = written;
        this.kind = kind;
        this.path = path;
    }

    /**
     * Reads {@code written}, a {@code --store} value.
     *
     * @throws IllegalArgumentException saying what is wrong: empty, a plain path naming an existing directory
     *                                  without its {@code /}, or a path ending with {@code /} naming a file
     */
    public static StoreLocation parse(String written) {
        return parse(written, false);
    }

    /**
     * Reads a location to read only (the log tools' LOG, {@code export}): as {@link #parse}, except that a plain
     * path naming an existing directory is that store directory, since reading it cannot put a store in the
     * wrong place.
     */
    public static StoreLocation parseForReading(String written) {
        return parse(written, true);
    }

    private static StoreLocation parse(String written, boolean reading) {
        if (written == null || written.isBlank()) {
            throw new IllegalArgumentException("a store location is a file, a directory ending with /, or a URL"
                    + " (file:..., jdbc:postgresql://...); it was empty");
        }
        if (SCHEME.matcher(written).matches()) {
            if (!written.regionMatches(true, 0, FILE, 0, FILE.length())) {
                return new StoreLocation(written, Kind.OTHER, null);
            }
            String raw = rawPath(written);
            if (raw.isEmpty()) {
                throw new IllegalArgumentException("a file store location names its file or directory, e.g."
                        + " file:engine-0.jsonl or file:engine-0/, was '" + written + "'");
            }
            Path path = Path.of(raw);
            boolean directory = endsWithSeparator(raw) || Files.isDirectory(path) || hasSegmentOption(written);
            checkNotAFileNamedAsDirectory(written, raw, path);
            return new StoreLocation(written, directory ? Kind.DIRECTORY : Kind.FILE, path);
        }
        Path path = Path.of(written);
        if (endsWithSeparator(written)) {
            checkNotAFileNamedAsDirectory(written, written, path);
            return new StoreLocation(written, Kind.DIRECTORY, path);
        }
        if (Files.isDirectory(path)) {
            if (reading) {
                return new StoreLocation(written, Kind.DIRECTORY, path);
            }
            throw new IllegalArgumentException(written + " is a directory: a store directory is written with its"
                    + " trailing slash, " + written + "/ or file:" + path.toAbsolutePath() + "/ (a location that ends"
                    + " with / is a directory); a store file needs a path that is not a directory");
        }
        return new StoreLocation(written, Kind.FILE, path);
    }

    /** The location as the user wrote it (for messages). */
    public String written() {
        return written;
    }

    public Kind kind() {
        return kind;
    }

    /** Whether this is a plain path (no scheme) to a single store file, which the caller may open itself. */
    public boolean isPlainFile() {
        return kind == Kind.FILE && !SCHEME.matcher(written).matches();
    }

    /** The file or directory on this machine; {@code null} for a location of another scheme. */
    public Path path() {
        return path;
    }

    /**
     * The location to open through its scheme's module ({@code LedgerStore.of}): as written when it has a
     * scheme; for a plain path, {@code file:PATH?fsync=P} (a directory keeps its {@code /}).
     */
    public String opening(FsyncPolicy fsync) {
        if (SCHEME.matcher(written).matches()) {
            return written;
        }
        return FILE + path + (kind == Kind.DIRECTORY ? "/" : "") + "?fsync=" + fsync;
    }

    /**
     * Opens the store through the module of its scheme (the {@code file:} provider for a path), as
     * {@code LedgerStore.of} would when a ledger is built; the caller owns it.
     *
     * @throws IllegalArgumentException when no module on the class path opens the scheme, or it refuses the location
     */
    public OpenStore open(FsyncPolicy fsync) {
        String location = opening(fsync);
        String scheme = location.substring(0, location.indexOf(':'));
        for (LedgerStoreProvider provider : ServiceLoader.load(LedgerStoreProvider.class)) {
            if (provider.scheme().equals(scheme)) {
                provider.validate(location);
                return provider.open(location);
            }
        }
        throw new IllegalArgumentException("no store module on the class path opens '" + scheme + ":' locations");
    }

    @Override
    public String toString() {
        return written;
    }

    /** The path of a {@code file:} location: after the scheme (and an empty {@code //} authority), before its options. */
    private static String rawPath(String location) {
        int query = location.indexOf('?');
        String path = location.substring(FILE.length(), query < 0 ? location.length() : query);
        return path.startsWith("//") ? path.substring(2) : path;
    }

    private static boolean hasSegmentOption(String location) {
        int query = location.indexOf('?');
        if (query < 0) {
            return false;
        }
        for (String pair : location.substring(query + 1).split("&")) {
            String key = pair.contains("=") ? pair.substring(0, pair.indexOf('=')) : pair;
            if (!key.equals("fsync")) {
                return true;
            }
        }
        return false;
    }

    private static boolean endsWithSeparator(String path) {
        return path.endsWith("/") || path.endsWith(java.io.File.separator);
    }

    private static void checkNotAFileNamedAsDirectory(String written, String raw, Path path) {
        if (endsWithSeparator(raw) && Files.exists(path) && !Files.isDirectory(path)) {
            throw new IllegalArgumentException(written + " ends with / (a store directory), but " + path
                    + " is a file: name a store file without the slash");
        }
    }
}
