package io.kvledger.domain.event;

import java.util.List;
import java.util.Objects;

/** Sampled tokens appended; {@code numTokens} is the new {@code n}. */
public record TokensAppended(String requestId, int numTokens, List<Integer> tokens) implements RequestEvent {

    public TokensAppended {
        tokens = List.copyOf(tokens);
    }

    /**
     * The record's own equality, written out: the generated one runs through method handles, which C1 (the log
     * tools' compiler) calls one by one, and the audit compares every derived event with its logged one
     * ({@code RecordEqualityTest} holds each component to it).
     */
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof TokensAppended o && numTokens == o.numTokens
                && Objects.equals(requestId, o.requestId) && Objects.equals(tokens, o.tokens);
    }
}
