package io.kvledger.infrastructure.store;

import io.kvledger.application.spi.OpenStore;
import java.nio.file.Path;
import java.util.ServiceLoader;

/**
 * Opens a store directory for the {@code file:} provider: the directory of segments lives in
 * {@code kvledger-store-segments}, which registers its opener here ({@link ServiceLoader}), so that a
 * host of single store files needs this module only.
 */
public interface StoreDirectories {

    /** Opens (or creates) the store directory at {@code directory}. */
    OpenStore open(Path directory, FsyncPolicy fsync, SegmentPolicy policy);

    /** The opener on the class path. */
    static StoreDirectories find(String location) {
        for (StoreDirectories opener : ServiceLoader.load(StoreDirectories.class, StoreDirectories.class.getClassLoader())) {
            return opener;
        }
        throw new IllegalArgumentException(location + " names a store directory: that needs kvledger-store-segments"
                + " on the class path");
    }
}
