package io.kvledger.infrastructure.store;

import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.application.spi.OpenStore;
import io.kvledger.domain.config.EngineConfig;
import java.nio.file.Path;
import java.util.List;

/**
 * Ledgers whose events live in a JSON Lines store file. The ledger owns the store: closing the ledger
 * forces (as the policy says) and unlocks the file. On a file that already holds the engine's events
 * the ledger resumes them (see {@link KvLedger}).
 *
 * <pre>{@code
 * try (KvLedger ledger = FileStores.ledger(Path.of("engine.jsonl"), FsyncPolicy.ALWAYS)) {
 *     ledger.step(commands);   // returns once the step's events are in the file (and on disk)
 * }
 * // the same, through the store choice of the embedding API:
 * KvLedger.builder().store(FileStores.store(Path.of("engine.jsonl"), FsyncPolicy.ALWAYS)).build();
 * }</pre>
 */
public final class FileStores {

    private FileStores() {
    }

    /**
     * The store at {@code file} with {@code fsync}, as the embedding API's store choice
     * ({@code file:PATH?fsync=...}).
     */
    public static LedgerStore store(Path file, FsyncPolicy fsync) {
        return LedgerStore.of(location(file, fsync));
    }

    /**
     * The store directory at {@code directory}, segments rolling, compressed and kept as {@code policy}
     * says (opened through {@code kvledger-store-segments}, which must be on the class path).
     */
    public static LedgerStore directory(Path directory, FsyncPolicy fsync, SegmentPolicy policy) {
        return LedgerStore.of(FileStoreProvider.location(directory, fsync, policy));
    }

    private static String location(Path file, FsyncPolicy fsync) {
        return FileStoreProvider.location(file, fsync);
    }

    /** A ledger over the store at {@code file}: the stored config when it holds events, else the defaults. */
    public static KvLedger ledger(Path file, FsyncPolicy fsync) {
        return KvLedger.builder().store(store(file, fsync)).build();
    }

    /** A ledger over the store at {@code file} with {@code config}, which must equal a stored one. */
    public static KvLedger ledger(Path file, FsyncPolicy fsync, EngineConfig config) {
        return KvLedger.builder().store(store(file, fsync)).config(config).build();
    }

    /**
     * A builder whose ledger keeps its events in {@code store} and closes it. Until {@code build()} is
     * called the caller still owns the store.
     */
    public static KvLedger.Builder builder(JsonlEventStorageEngine store) {
        return KvLedger.builder().store(LedgerStore.opened(location(store.file(), store.fsyncPolicy()),
                () -> OpenStore.of(store, store, List.of(store.snapshotListener()), store)));
    }
}
