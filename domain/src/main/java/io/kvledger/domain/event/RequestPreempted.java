package io.kvledger.domain.event;

/** The request was preempted: {@code c} is 0 and its table is released. */
public record RequestPreempted(String requestId) implements RequestEvent {
}
