package io.kvledger.domain.event;

/** Tokens were scheduled for a forward pass; {@code numComputedTokens} is the new {@code c}. */
public record TokensComputed(String requestId, int numComputedTokens) implements RequestEvent {
}
