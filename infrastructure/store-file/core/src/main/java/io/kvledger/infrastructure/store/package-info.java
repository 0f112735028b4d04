/**
 * The embedded JSON Lines file store: an append-only file that is Axon's event storage and a log every
 * tool reads, its lock, step checksums and snapshots, and the {@code file:} store provider (a store
 * directory is opened through kvledger-store-segments).
 */
package io.kvledger.infrastructure.store;
