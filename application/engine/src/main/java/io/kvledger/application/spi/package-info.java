/**
 * The store SPI: a store module implements {@link io.kvledger.application.spi.LedgerStoreProvider} for
 * a location scheme and is found by {@link java.util.ServiceLoader}. It may name Axon types; users of
 * the embedding API never see them.
 */
package io.kvledger.application.spi;
