package io.kvledger.infrastructure.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.ConfigMismatchException;
import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code file:} locations through the embedding API's store choice: found by scheme, resumed, refused on a mismatch. */
class FileLedgerStoreTest {

    @TempDir
    Path dir;

    @Test
    void aFileLocationIsOpenedByThisModuleAndResumedOnTheNextBuild() throws Exception {
        Path file = dir.resolve("engine-0.jsonl");
        EngineConfig config = EngineConfig.DEFAULTS.withGpuBlockSize(4);

        try (KvLedger ledger = KvLedger.builder().store(LedgerStore.file(file)).config(config).build()) {
            assertFalse(ledger.resumed());
            ledger.step(List.of(new RegisterRequest("r1", List.of(1, 2, 3, 4))));
        }
        assertEquals(2, Files.readAllLines(file).size(), "EngineConfigured and RequestRegistered");

        try (KvLedger ledger = KvLedger.builder().store(LedgerStore.of("file:" + file + "?fsync=never")).build()) {
            assertTrue(ledger.resumed());
            assertEquals(config, ledger.state().config());
            assertTrue(ledger.state().isKnown("r1"));
        }
        try (KvLedger ledger = KvLedger.builder().store(LedgerStore.of("file://" + file.toAbsolutePath())).build()) {
            assertTrue(ledger.resumed());
        }
        KvLedger.Builder other = KvLedger.builder().store(FileStores.store(file, FsyncPolicy.ALWAYS)).config(EngineConfig.DEFAULTS);
        assertThrows(ConfigMismatchException.class, other::build);
        try (KvLedger ledger = FileStores.ledger(file, FsyncPolicy.interval(java.time.Duration.ofMillis(5)))) {
            assertTrue(ledger.resumed(), "the mismatch left the store unlocked and unchanged");
        }
        assertEquals(2, Files.readAllLines(file).size());
    }

    @Test
    void aBadFsyncOrAMissingPathIsRefusedWhereTheLocationIsNamed() {
        IllegalArgumentException fsync = assertThrows(IllegalArgumentException.class,
                () -> LedgerStore.of("file:" + dir.resolve("x.jsonl") + "?fsync=sometimes"));
        assertTrue(fsync.getMessage().contains("always, never or interval:MS"), fsync.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LedgerStore.of("file:"));
        assertFalse(Files.exists(dir.resolve("x.jsonl")), "nothing was opened");
    }
}
