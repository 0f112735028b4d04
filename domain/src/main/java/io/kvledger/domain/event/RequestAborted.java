package io.kvledger.domain.event;

/** The request was aborted (terminal). */
public record RequestAborted(String requestId) implements RequestEvent {
}
