package io.kvledger.infrastructure.store;

import io.kvledger.application.spi.LedgerStoreProvider;
import io.kvledger.application.spi.OpenStore;
import java.nio.file.Path;

/**
 * {@code file:PATH[?fsync=always|never|interval:MS]}: the JSON Lines store file at {@code PATH}
 * ({@code file:///abs/path} works too), forced as the policy says ({@code always} when none is given).
 * Found by {@code LedgerStore.of} through {@link java.util.ServiceLoader}.
 */
public final class FileStoreProvider implements LedgerStoreProvider {

    private static final String PREFIX = "file:";
    private static final String FSYNC = "?fsync=";

    @Override
    public String scheme() {
        return "file";
    }

    @Override
    public void validate(String location) {
        path(location);
        fsync(location);
    }

    @Override
    public OpenStore open(String location) {
        JsonlEventStorageEngine store = JsonlEventStorageEngine.open(path(location), fsync(location));
        return OpenStore.of(store, store, store.snapshotListener());
    }

    static String location(Path file, FsyncPolicy fsync) {
        return PREFIX + file + FSYNC + fsync;
    }

    private static Path path(String location) {
        if (!location.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a file store location: " + location);
        }
        int query = location.lastIndexOf(FSYNC);
        String path = location.substring(PREFIX.length(), query < 0 ? location.length() : query);
        if (path.startsWith("//")) {
            path = path.substring(2); // file:///abs/path: an empty authority
        }
        if (path.isEmpty()) {
            throw new IllegalArgumentException("a file store location names its file, e.g. file:engine-0.jsonl, was '" + location + "'");
        }
        return Path.of(path);
    }

    private static FsyncPolicy fsync(String location) {
        int query = location.lastIndexOf(FSYNC);
        return query < 0 ? FsyncPolicy.ALWAYS : FsyncPolicy.parse(location.substring(query + FSYNC.length()));
    }
}
