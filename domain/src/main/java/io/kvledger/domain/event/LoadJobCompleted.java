package io.kvledger.domain.event;

/** A load job ended (its last completion arrived). */
public record LoadJobCompleted(long jobId, String requestId, boolean success) implements RequestEvent {
}
