package io.kvledger.domain.event;

import java.util.Objects;

/** Tokens were scheduled for a forward pass; {@code numComputedTokens} is the new {@code c}. */
public record TokensComputed(String requestId, int numComputedTokens) implements RequestEvent {

    /**
     * The record's own equality, written out: the generated one runs through method handles, which C1 (the log
     * tools' compiler) calls one by one, and the audit compares every derived event with its logged one
     * ({@code RecordEqualityTest} holds each component to it).
     */
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof TokensComputed o && numComputedTokens == o.numComputedTokens
                && Objects.equals(requestId, o.requestId);
    }
}
