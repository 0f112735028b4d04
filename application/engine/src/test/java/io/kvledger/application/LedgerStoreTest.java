package io.kvledger.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.RequestRegistered;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The store choice: schemes resolved through the provider SPI, opened at build, closed last. */
class LedgerStoreTest {

    @BeforeEach
    void forget() {
        RecordingStoreProvider.EVENTS.clear();
    }

    @Test
    void aSchemeOfAModuleOnTheClassPathIsOpenedAtBuildAndClosedAfterEverythingElse() {
        List<String> order = RecordingStoreProvider.EVENTS;
        LedgerStore store = LedgerStore.of("recording:one");
        assertEquals(List.of(), order, "nothing is opened until a ledger is built");

        KvLedger ledger = KvLedger.builder().store(store).closeWith(() -> order.add("close first given"))
                .listener((commands, result, nanos) -> order.add("host told of a step of " + commands))
                .closeWith(() -> order.add("close second given")).build();
        assertTrue(ledger.step(List.of(new RegisterRequest("r", List.of(1, 2)))).events().get(0) instanceof RequestRegistered);
        ledger.close();

        assertEquals(List.of("open recording:one", "store told of a step of 1", "host told of a step of 1",
                "close second given", "close first given", "close recording:one"), order);
    }

    @Test
    void aStoreThatCannotOpenClosesWhatTheBuilderWasGiven() {
        List<String> closed = new ArrayList<>();
        KvLedger.Builder builder = KvLedger.builder().store(LedgerStore.of("recording:refuse")).closeWith(() -> closed.add("given"));

        IllegalStateException e = assertThrows(IllegalStateException.class, builder::build);

        assertTrue(e.getMessage().contains("refuses to open"), e.getMessage());
        assertEquals(List.of("given"), closed);
    }

    @Test
    void closingTheLedgerClosesTheStoreItOpenedOnce() {
        KvLedger ledger = KvLedger.builder().store(LedgerStore.of("recording:two")).config(EngineConfig.DEFAULTS).build();
        ledger.close();
        assertEquals(List.of("open recording:two", "close recording:two"), RecordingStoreProvider.EVENTS);
        ledger.close();
        assertEquals(2, RecordingStoreProvider.EVENTS.size(), "a second close does not close the store again");
    }

    @Test
    void anUnknownSchemeIsRefusedWhereItIsNamedWithTheSchemesThatAreKnown() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LedgerStore.of("jdbc:postgresql://127.0.0.1/kv"));

        assertTrue(e.getMessage().contains("'jdbc:'"), e.getMessage());
        assertTrue(e.getMessage().contains("[mem, none, recording]"), e.getMessage());
    }

    @Test
    void aLocationWithoutASchemeOrOneTheModuleRefusesIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> LedgerStore.of("engine.jsonl"));
        assertThrows(IllegalArgumentException.class, () -> LedgerStore.of(":x"));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> LedgerStore.of("recording:bad"));
        assertTrue(bad.getMessage().contains("bad is not a name"), bad.getMessage());
    }

    @Test
    void theBuiltInStoresNeedNoModule() {
        for (LedgerStore store : List.of(LedgerStore.inMemory(), LedgerStore.discarding(), LedgerStore.of("mem:"))) {
            try (KvLedger ledger = KvLedger.builder().store(store).build()) {
                assertFalse(ledger.resumed());
                assertEquals(1, ledger.execute(new RegisterRequest("r", List.of(1))).events().size(), store.location());
            }
        }
        assertEquals("mem:", LedgerStore.inMemory().location());
        assertEquals("none:", LedgerStore.discarding().toString());
    }
}
