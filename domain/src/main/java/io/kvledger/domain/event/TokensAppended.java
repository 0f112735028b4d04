package io.kvledger.domain.event;

import java.util.List;

/** Sampled tokens appended; {@code numTokens} is the new {@code n}. */
public record TokensAppended(String requestId, int numTokens, List<Integer> tokens) implements RequestEvent {

    public TokensAppended {
        tokens = List.copyOf(tokens);
    }
}
