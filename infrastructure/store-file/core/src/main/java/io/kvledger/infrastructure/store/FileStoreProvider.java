package io.kvledger.infrastructure.store;

import io.kvledger.application.spi.LedgerStoreProvider;
import io.kvledger.application.spi.OpenStore;
import java.nio.file.Path;
import java.util.List;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code file:PATH[?fsync=always|never|interval:MS]}: the JSON Lines store file at {@code PATH}
 * ({@code file:///abs/path} works too), forced as the policy says ({@code always} when none is given).
 *
 * <p>A store directory ({@code SegmentedEventStorageEngine}, kvledger-store-segments, through
 * {@link StoreDirectories}) when {@code PATH} is a directory, ends
 * with {@code /}, or the location names a segment option: {@code segmentBytes=N}, {@code segmentAgeMs=MS},
 * {@code compress=gzip|none} (gzip by default), {@code retainBytes=N}, {@code retainAgeMs=MS},
 * {@code snapshotEvery=N}, joined with {@code &}, e.g.
 * {@code file:/var/lib/kvledger/engine-0/?segmentBytes=67108864&retainBytes=10737418240&fsync=never}.
 * Found by {@code LedgerStore.of} through {@link java.util.ServiceLoader}.
 */
public final class FileStoreProvider implements LedgerStoreProvider {

    private static final String PREFIX = "file:";
    private static final Set<String> SEGMENT_KEYS = Set.of("segmentBytes", "segmentAgeMs", "compress", "retainBytes",
            "retainAgeMs", "snapshotEvery");

    @Override
    public String scheme() {
        return "file";
    }

    @Override
    public void validate(String location) {
        path(location);
        fsync(location);
        if (isDirectory(location)) {
            segmentPolicy(location);
        }
    }

    @Override
    public OpenStore open(String location) {
        if (isDirectory(location)) {
            return StoreDirectories.find(location).open(path(location), fsync(location), segmentPolicy(location));
        }
        JsonlEventStorageEngine store = JsonlEventStorageEngine.open(path(location), fsync(location));
        return OpenStore.of(store, store, List.of(store.snapshotListener()), store);
    }

    static String location(Path file, FsyncPolicy fsync) {
        return PREFIX + file + "?fsync=" + fsync;
    }

    static String location(Path directory, FsyncPolicy fsync, SegmentPolicy policy) {
        return PREFIX + directory + "/?fsync=" + fsync + "&segmentBytes=" + policy.segmentBytes()
                + (policy.segmentAge() == null ? "" : "&segmentAgeMs=" + policy.segmentAge().toMillis())
                + "&compress=" + (policy.compress() ? "gzip" : "none") + "&retainBytes=" + policy.retainBytes()
                + (policy.retainAge() == null ? "" : "&retainAgeMs=" + policy.retainAge().toMillis())
                + "&snapshotEvery=" + policy.snapshotEvery();
    }

    private static boolean isDirectory(String location) {
        path(location); // a location of another scheme, or without a path, is refused first
        return StoreLocation.parse(location).kind() == StoreLocation.Kind.DIRECTORY; // the one reading of a location
    }

    private static String rawPath(String location) {
        if (!location.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a file store location: " + location);
        }
        int query = location.indexOf('?');
        String path = location.substring(PREFIX.length(), query < 0 ? location.length() : query);
        return path.startsWith("//") ? path.substring(2) : path; // file:///abs/path: an empty authority
    }

    private static Path path(String location) {
        String path = rawPath(location);
        if (path.isEmpty()) {
            throw new IllegalArgumentException("a file store location names its file, e.g. file:engine-0.jsonl, was '" + location + "'");
        }
        return Path.of(path);
    }

    private static Map<String, String> options(String location) {
        int query = location.indexOf('?');
        Map<String, String> options = new LinkedHashMap<>();
        if (query < 0) {
            return options;
        }
        for (String pair : location.substring(query + 1).split("&")) {
            int equals = pair.indexOf('=');
            String key = equals < 0 ? pair : pair.substring(0, equals);
            if (!key.equals("fsync") && !SEGMENT_KEYS.contains(key)) {
                throw new IllegalArgumentException("unknown option '" + key + "' in " + location
                        + " (fsync, segmentBytes, segmentAgeMs, compress, retainBytes, retainAgeMs, snapshotEvery)");
            }
            options.put(key, equals < 0 ? "" : pair.substring(equals + 1));
        }
        return options;
    }

    private static FsyncPolicy fsync(String location) {
        String fsync = options(location).get("fsync");
        return fsync == null ? FsyncPolicy.ALWAYS : FsyncPolicy.parse(fsync);
    }

    private static SegmentPolicy segmentPolicy(String location) {
        Map<String, String> options = options(location);
        SegmentPolicy policy = SegmentPolicy.DEFAULTS;
        try {
            if (options.containsKey("segmentBytes")) {
                policy = policy.withSegmentBytes(Long.parseLong(options.get("segmentBytes")));
            }
            if (options.containsKey("segmentAgeMs")) {
                policy = policy.withSegmentAge(Duration.ofMillis(Long.parseLong(options.get("segmentAgeMs"))));
            }
            if (options.containsKey("retainBytes")) {
                policy = policy.withRetainBytes(Long.parseLong(options.get("retainBytes")));
            }
            if (options.containsKey("retainAgeMs")) {
                policy = policy.withRetainAge(Duration.ofMillis(Long.parseLong(options.get("retainAgeMs"))));
            }
            if (options.containsKey("snapshotEvery")) {
                policy = policy.withSnapshotEvery(Long.parseLong(options.get("snapshotEvery")));
            }
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("segmentBytes, segmentAgeMs, retainBytes, retainAgeMs and snapshotEvery"
                    + " are whole numbers; " + location + " has one that is not", e);
        }
        String compress = options.getOrDefault("compress", "gzip");
        if (!compress.equals("gzip") && !compress.equals("none")) {
            throw new IllegalArgumentException("compress must be gzip or none, was '" + compress + "' in " + location);
        }
        return policy.withCompress(compress.equals("gzip"));
    }
}
