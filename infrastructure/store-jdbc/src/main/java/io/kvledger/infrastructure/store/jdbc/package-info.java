/**
 * Engines whose events live in PostgreSQL: Axon's JDBC event storage over a HikariCP pool, a plain-JDBC
 * transaction manager so a step is one transaction, the serializer on the log's stable type names, the
 * {@code jdbc:} store provider, and a throwaway local server for tests and trials.
 */
package io.kvledger.infrastructure.store.jdbc;
