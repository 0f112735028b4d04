package io.kvledger.infrastructure.trace;

/**
 * What a trace holds.
 *
 * @param events         log events read
 * @param traceEvents    trace events written
 * @param jobs           job slices begun (one per job scheduled in the window, or in flight when it opened)
 * @param unfinishedJobs job slices closed at the end of the log or window, their job still in flight
 * @param clock          {@code envelope} or {@code position}
 */
public record TraceSummary(long events, long traceEvents, long jobs, long unfinishedJobs, String clock) {
}
