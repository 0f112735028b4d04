package io.kvledger.domain.event;

/** The lookup must be asked again later; it cancels any earlier unused match. */
public record PrefixMatchDeferred(String requestId, int gpuHitTokens, DeferReason reason) implements RequestEvent {
}
