package io.kvledger.domain.event;

import java.util.Objects;

/** Speculative tokens were rejected; {@code numComputedTokens} is the new {@code c}. */
public record TokensRejected(String requestId, int numComputedTokens) implements RequestEvent {

    /** The record's equality, written out for C1, which calls the generated one's method handles one by one. */
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof TokensRejected o && numComputedTokens == o.numComputedTokens
                && Objects.equals(requestId, o.requestId);
    }
}
