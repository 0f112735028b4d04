package io.kvledger.domain.event;

/** Speculative tokens were rejected; {@code numComputedTokens} is the new {@code c}. */
public record TokensRejected(String requestId, int numComputedTokens) implements RequestEvent {
}
