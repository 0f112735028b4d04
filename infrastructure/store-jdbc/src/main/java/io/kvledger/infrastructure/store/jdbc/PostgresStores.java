package io.kvledger.infrastructure.store.jdbc;

import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.domain.config.EngineConfig;

/**
 * Ledgers whose events live in PostgreSQL, one engine each, as {@code FileStores} gives them on a file
 * ({@code LedgerStore.of("jdbc:postgresql://...")} is the same store).
 * A ledger from here owns its store (a pool of its own) and closes it; to run many engines in one
 * process, open one {@link PostgresStore} and take each engine's builder from {@link PostgresStore#ledger}.
 *
 * <pre>{@code
 * try (KvLedger ledger = PostgresStores.ledger("jdbc:postgresql://127.0.0.1:5432/kvledger?user=kv", "engine-7")) {
 *     ledger.step(commands);   // returns once the step's transaction has committed
 * }
 * }</pre>
 */
public final class PostgresStores {

    private PostgresStores() {
    }

    /** The ledger of {@code engineId}: resumed when the database holds its events, else with the defaults. */
    public static KvLedger ledger(String jdbcUrl, String engineId) {
        return builder(jdbcUrl, engineId).build();
    }

    /** The ledger of {@code engineId} with {@code config}, which must equal a stored one. */
    public static KvLedger ledger(String jdbcUrl, String engineId, EngineConfig config) {
        return builder(jdbcUrl, engineId).config(config).build();
    }

    /** A builder whose ledger keeps its events at {@code jdbcUrl} and closes the store it opened. */
    public static KvLedger.Builder builder(String jdbcUrl, String engineId) {
        return KvLedger.builder().engineId(engineId).store(LedgerStore.of(jdbcUrl));
    }
}
