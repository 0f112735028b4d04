/**
 * {@code kvledger simulate}: a seeded vLLM-like host that drives a {@code KvLedger} and checks every
 * step.
 */
package io.kvledger.simulation;
