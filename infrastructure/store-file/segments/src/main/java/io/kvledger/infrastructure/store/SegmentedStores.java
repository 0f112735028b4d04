package io.kvledger.infrastructure.store;

import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.application.spi.OpenStore;
import java.nio.file.Path;
import java.util.List;

/**
 * Ledgers whose events live in a store directory ({@link SegmentedEventStorageEngine}): segments
 * rolling, compressed and kept as a {@link SegmentPolicy} says. The ledger owns the store, as with
 * {@link FileStores} (whose {@code directory(...)} names a store directory by its location).
 */
public final class SegmentedStores {

    private SegmentedStores() {
    }

    /** A builder whose ledger keeps its events in the store directory {@code store} and closes it. */
    public static KvLedger.Builder builder(SegmentedEventStorageEngine store) {
        return KvLedger.builder().store(LedgerStore.opened(FileStoreProvider.location(store.directory(),
                store.fsyncPolicy(), SegmentPolicy.DEFAULTS), () -> OpenStore.of(store, store, List.of(store.snapshotListener()), store)));
    }
}
