/**
 * Micrometer metrics of a ledger's steps, as a {@code StepListener}.
 */
package io.kvledger.infrastructure.metrics;
