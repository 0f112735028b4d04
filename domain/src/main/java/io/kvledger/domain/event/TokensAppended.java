package io.kvledger.domain.event;

import java.util.List;
import java.util.Objects;

/** Sampled tokens appended; {@code numTokens} is the new {@code n}. */
public record TokensAppended(String requestId, int numTokens, List<Integer> tokens) implements RequestEvent {

    public TokensAppended {
        tokens = List.copyOf(tokens);
    }

    /** The record's equality, written out for C1, which calls the generated one's method handles one by one. */
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof TokensAppended o && numTokens == o.numTokens
                && Objects.equals(requestId, o.requestId) && Objects.equals(tokens, o.tokens);
    }
}
