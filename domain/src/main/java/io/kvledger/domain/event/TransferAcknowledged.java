package io.kvledger.domain.event;

/**
 * A completion that does not end its job (only when {@code workers} > 1); {@code success} is that
 * completion's own flag.
 */
public record TransferAcknowledged(long jobId, String requestId, boolean success) implements RequestEvent {
}
