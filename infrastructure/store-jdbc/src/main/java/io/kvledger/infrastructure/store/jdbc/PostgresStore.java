package io.kvledger.infrastructure.store.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.application.spi.OpenStore;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.EventStoreException;
import org.axonframework.serialization.Serializer;
import org.axonframework.eventsourcing.eventstore.jdbc.JdbcEventStorageEngine;
import org.axonframework.eventsourcing.eventstore.jdbc.PostgresEventTableFactory;
import org.axonframework.eventsourcing.eventstore.jpa.SQLStateResolver;

/**
 * One PostgreSQL database holding the ledgers of many engines: Axon's {@link JdbcEventStorageEngine}
 * over a HikariCP pool, one aggregate per engine id (so request ids of different engines never meet),
 * each step one transaction of {@link ThreadBoundTransactions}. The schema (Axon's default tables,
 * {@code bytea} payloads) is created on first open. Thread-safe; share one per process.
 */
public final class PostgresStore implements AutoCloseable {

    /** SQLState of a unique violation: another writer took the engine's next sequence number first. */
    static final String UNIQUE_VIOLATION = "23505";
    /** pgjdbc's {@code prepareThreshold}: -1 is "server-prepare and read binary from the first execution". */
    static final int PREPARE_THRESHOLD = -1;
    private static final long SCHEMA_LOCK = 0x6b766c6564676572L; // "kvledger"

    private final String url;
    private final HikariDataSource pool;
    private final ThreadBoundTransactions transactions;
    private final StableTypeSerializer serializer = StableTypeSerializer.create();
    private final JdbcEventStorageEngine engine;

    private PostgresStore(String url, int poolSize) {
        this.url = url;
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(poolSize);
        config.setPoolName("kvledger-store");
        config.setInitializationFailTimeout(3_000);
        // Stored steps come back as bytea: in the text format the server hex-encodes each payload and the
        // driver decodes it, twice the bytes on the socket and CPU on both sides. The driver reads binary only
        // from statements the server has prepared, which by default happens at a statement's fifth use on a
        // connection, and a catch-up of millions of events is a few dozen fetches over six connections, so
        // nearly all were text. -1 prepares (and reads binary) from the first use. A URL that sets it wins.
        config.addDataSourceProperty("prepareThreshold", String.valueOf(PREPARE_THRESHOLD));
        this.pool = new HikariDataSource(config);
        this.transactions = new ThreadBoundTransactions(pool);
        this.engine = JdbcEventStorageEngine.builder()
                .connectionProvider(transactions)
                .transactionManager(transactions)
                .eventSerializer(serializer)
                .snapshotSerializer(serializer)
                // The driver's duplicate key is a PSQLException with this SQLState, which Axon's default
                // resolver (by vendor error codes) does not recognise; without it no ConcurrencyException.
                .persistenceExceptionResolver(new SQLStateResolver(UNIQUE_VIOLATION))
                .build();
        createSchema();
    }

    /** Opens the store at a {@code jdbc:postgresql://...} URL, creating its tables when missing. */
    public static PostgresStore open(String jdbcUrl) {
        return open(jdbcUrl, 8);
    }

    public static PostgresStore open(String jdbcUrl, int poolSize) {
        if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("not a PostgreSQL JDBC URL (jdbc:postgresql://HOST:PORT/DB): " + jdbcUrl);
        }
        try {
            return new PostgresStore(jdbcUrl, poolSize);
        } catch (RuntimeException e) {
            throw new EventStoreException("cannot open the store at " + redacted(jdbcUrl) + ": " + rootMessage(e), e);
        }
    }

    /** Several processes may open an empty database at once: the advisory lock lets one create the tables. */
    private void createSchema() {
        transactions.executeInTransaction(() -> {
            try (Connection connection = transactions.getConnection(); Statement statement = connection.createStatement()) {
                statement.execute("SELECT pg_advisory_xact_lock(" + SCHEMA_LOCK + ")");
            } catch (SQLException e) {
                throw new EventStoreException("cannot lock the schema: " + e.getMessage(), e);
            }
            engine.createSchema(PostgresEventTableFactory.INSTANCE);
        });
    }

    /** A builder of the ledger of {@code engineId} in this store; the store stays open when it closes. */
    public KvLedger.Builder ledger(String engineId) {
        return KvLedger.builder().engineId(engineId).store(LedgerStore.opened(redacted(url), () -> openStore(false)));
    }

    /** The store as the engine's SPI sees it: its engine, serializer and transactions; closed with it when owned. */
    OpenStore openStore(boolean owned) {
        PostgresStore store = this;
        return new OpenStore() {
            @Override
            public EventStorageEngine storageEngine() {
                return engine;
            }

            @Override
            public Serializer serializer() {
                return serializer;
            }

            @Override
            public TransactionManager transactionManager() {
                return transactions;
            }

            @Override
            public void close() {
                if (owned) {
                    store.close();
                }
            }

            @Override
            public String toString() {
                return redacted(url);
            }
        };
    }

    /** The ids of the engines that have events here, sorted. */
    public List<String> engineIds() {
        List<String> ids = new ArrayList<>();
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(
                     "SELECT DISTINCT aggregateidentifier FROM domainevententry ORDER BY aggregateidentifier")) {
            while (rows.next()) {
                ids.add(rows.getString(1));
            }
        } catch (SQLException e) {
            throw new EventStoreException("cannot list the engines: " + e.getMessage(), e);
        }
        return ids;
    }

    public JdbcEventStorageEngine engine() {
        return engine;
    }

    public ThreadBoundTransactions transactions() {
        return transactions;
    }

    public StableTypeSerializer serializer() {
        return serializer;
    }

    public DataSource dataSource() {
        return pool;
    }

    public String url() {
        return url;
    }

    @Override
    public void close() {
        pool.close();
    }

    /** The URL without a password, for messages. */
    static String redacted(String url) {
        return url.replaceAll("(?i)(password=)[^&]*", "$1***");
    }

    private static String rootMessage(Throwable e) {
        Throwable cause = e;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getMessage();
    }
}
