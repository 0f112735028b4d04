/**
 * The embedding API a host programs against: {@link io.kvledger.application.KvLedger} (one call per
 * scheduler step), its builder, the store choice {@link io.kvledger.application.LedgerStore} and step
 * listeners. No Axon type appears in it; the Axon-backed ledger is package-private.
 */
package io.kvledger.application;
