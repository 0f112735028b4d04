/**
 * {@code kvledger trace}: an event log as a Chrome Trace Event Format file for Perfetto, written as the log is
 * folded (request states, jobs as async slices, instants, counters). Uses the log tools' fold, never Axon.
 */
package io.kvledger.infrastructure.trace;
