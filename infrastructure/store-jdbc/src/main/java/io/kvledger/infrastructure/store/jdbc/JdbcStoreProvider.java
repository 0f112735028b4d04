package io.kvledger.infrastructure.store.jdbc;

import io.kvledger.application.spi.LedgerStoreProvider;
import io.kvledger.application.spi.OpenStore;

/**
 * {@code jdbc:postgresql://HOST:PORT/DB?user=U}: the PostgreSQL store, for {@code LedgerStore.of} and
 * {@code --store} (registered in META-INF/services). The ledger owns the pool it opens (two connections);
 * many engines in one process share one {@link PostgresStore} instead.
 */
public final class JdbcStoreProvider implements LedgerStoreProvider {

    @Override
    public String scheme() {
        return "jdbc";
    }

    @Override
    public void validate(String location) {
        if (!location.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("the JDBC store opens PostgreSQL only (jdbc:postgresql://HOST:PORT/DB), was '"
                    + PostgresStore.redacted(location) + "'");
        }
    }

    @Override
    public OpenStore open(String location) {
        return PostgresStore.open(location, 2).openStore(true);
    }
}
