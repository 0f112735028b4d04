package io.kvledger.domain.event;

/** A store job ended (its last completion arrived). */
public record StoreJobCompleted(long jobId, String requestId, boolean success) implements RequestEvent {
}
