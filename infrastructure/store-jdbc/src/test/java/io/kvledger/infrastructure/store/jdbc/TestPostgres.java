package io.kvledger.infrastructure.store.jdbc;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real PostgreSQL for the tests, with no manual step: the first test class that uses it starts one
 * throwaway cluster for the whole test run (ports 51200-51299), stopped when the run ends; every
 * call to {@link #newDatabase} gives an empty database of its own. If no server can be started the
 * tests fail, saying why: they are never skipped.
 */
public final class TestPostgres implements BeforeAllCallback {

    private static final AtomicInteger DATABASES = new AtomicInteger();
    private static LocalPostgres server;

    @Override
    public void beforeAll(ExtensionContext context) {
        server();
        context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(TestPostgres.class, key -> (AutoCloseable) TestPostgres::stop);
    }

    /** The server, started on first use. */
    public static synchronized LocalPostgres server() {
        if (server == null) {
            server = LocalPostgres.start(51200, LocalPostgres.THROWAWAY);
        }
        return server;
    }

    /** The JDBC URL of a new, empty database. */
    public static String newDatabase() {
        String name = "t" + ProcessHandle.current().pid() + "_" + DATABASES.incrementAndGet();
        server().createDatabase(name);
        return server().jdbcUrl(name);
    }

    private static synchronized void stop() {
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
