/**
 * The store directory of segments (rolling, compressed, kept within a budget), opened by the
 * {@code file:} provider of {@code kvledger-store-file}, and what the log tools read of any store
 * ({@link io.kvledger.infrastructure.store.StoreLog}). The same package as the store file's: a
 * segment is a store file, and the directory uses the file's package-private parts.
 */
package io.kvledger.infrastructure.store;
