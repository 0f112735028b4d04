/**
 * The embedded JSON Lines file store: an append-only file that is Axon's event storage and a log every
 * tool reads, and its {@code file:} store provider.
 */
package io.kvledger.infrastructure.store;
