package io.kvledger.infrastructure.store;

import io.kvledger.application.spi.OpenStore;
import java.nio.file.Path;
import java.util.List;

/** The store directories of the {@code file:} provider: {@link SegmentedEventStorageEngine}s. */
public final class SegmentedStoreDirectories implements StoreDirectories {

    @Override
    public OpenStore open(Path directory, FsyncPolicy fsync, SegmentPolicy policy) {
        SegmentedEventStorageEngine store = SegmentedEventStorageEngine.open(directory, fsync, policy);
        return OpenStore.of(store, store, List.of(store.snapshotListener()), store);
    }
}
