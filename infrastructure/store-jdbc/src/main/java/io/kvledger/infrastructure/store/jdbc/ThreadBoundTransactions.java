package io.kvledger.infrastructure.store.jdbc;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.axonframework.common.jdbc.ConnectionProvider;
import org.axonframework.common.transaction.Transaction;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.eventsourcing.eventstore.EventStoreException;

/**
 * Axon's {@link TransactionManager} and {@link ConnectionProvider} over plain JDBC, which Axon 4 ships
 * only for Spring. A transaction binds one {@code autoCommit=false} connection to the thread; every
 * statement Axon runs on that thread until it ends uses it, so a step's load and append, or a
 * processor's batch with its projection writes and its token update, commit or roll back together.
 * A transaction started inside another joins it. Outside a transaction a statement gets a pooled
 * connection of its own, in auto-commit.
 */
public final class ThreadBoundTransactions implements TransactionManager, ConnectionProvider {

    private final DataSource dataSource;
    private final ThreadLocal<Connection> bound = new ThreadLocal<>();

    public ThreadBoundTransactions(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public Transaction startTransaction() {
        if (bound.get() != null) {
            return Joined.INSTANCE;
        }
        Connection connection;
        try {
            connection = dataSource.getConnection();
            connection.setAutoCommit(false);
        } catch (SQLException e) {
            throw new EventStoreException("cannot begin a transaction: " + e.getMessage(), e);
        }
        bound.set(connection);
        return new Outermost(connection);
    }

    /** The thread's transaction connection (closing it does nothing), or a pooled auto-commit one. */
    @Override
    public Connection getConnection() throws SQLException {
        Connection connection = bound.get();
        return connection == null ? dataSource.getConnection() : unclosable(connection);
    }

    /** Whether this thread is inside a transaction. */
    public boolean inTransaction() {
        return bound.get() != null;
    }

    private static Connection unclosable(Connection connection) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    switch (method.getName()) {
                        case "close":
                            return null;
                        case "isClosed":
                            return connection.isClosed();
                        default:
                            try {
                                return method.invoke(connection, args);
                            } catch (InvocationTargetException e) {
                                throw e.getCause();
                            }
                    }
                });
    }

    private final class Outermost implements Transaction {
        private final Connection connection;

        private Outermost(Connection connection) {
            this.connection = connection;
        }

        @Override
        public void commit() {
            try {
                connection.commit();
            } catch (SQLException e) {
                rollback();
                throw new EventStoreException("cannot commit: " + e.getMessage(), e);
            } finally {
                release();
            }
        }

        @Override
        public void rollback() {
            try {
                if (!connection.isClosed()) {
                    connection.rollback();
                }
            } catch (SQLException e) {
                throw new EventStoreException("cannot roll back: " + e.getMessage(), e);
            } finally {
                release();
            }
        }

        private void release() {
            if (bound.get() == connection) {
                bound.remove();
            }
            try {
                connection.close();
            } catch (SQLException e) {
                // the pool discards a connection it cannot reset
            }
        }
    }

    /** A transaction inside another: the outer one commits or rolls back. */
    private enum Joined implements Transaction {
        INSTANCE;

        @Override
        public void commit() {
        }

        @Override
        public void rollback() {
        }
    }
}
