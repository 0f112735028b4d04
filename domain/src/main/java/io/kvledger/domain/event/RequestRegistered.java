package io.kvledger.domain.event;

import io.kvledger.domain.state.HashedPrompt;
import java.util.List;
import java.util.Objects;

/**
 * A request is known, with its prompt, and with each control of contract section 9.1 its command gave
 * ({@code null}: not given, and then not written, so a log without them is a revision-5 log).
 */
public record RequestRegistered(String requestId, int promptLength, List<Integer> promptTokens, Integer maxOffloadTokens,
                                Integer maxLoadTokens, Boolean skipReadingPrefixCache) implements RequestEvent {

    public RequestRegistered {
        // A prompt hashed already (on a log tool's parse thread) stays as it is: it is immutable and equals its tokens.
        promptTokens = promptTokens instanceof HashedPrompt ? promptTokens : List.copyOf(promptTokens);
    }

    /** A request registered without controls. */
    public RequestRegistered(String requestId, int promptLength, List<Integer> promptTokens) {
        this(requestId, promptLength, promptTokens, null, null, null);
    }

    /** Whether any of the controls was given. */
    public boolean hasControls() {
        return maxOffloadTokens != null || maxLoadTokens != null || skipReadingPrefixCache != null;
    }

    /** As the record's own, with each control only when given (so a request without them reads as before). */
    @Override
    public String toString() {
        return "RequestRegistered[requestId=" + requestId + ", promptLength=" + promptLength + ", promptTokens=" + promptTokens
                + (maxOffloadTokens == null ? "" : ", maxOffloadTokens=" + maxOffloadTokens)
                + (maxLoadTokens == null ? "" : ", maxLoadTokens=" + maxLoadTokens)
                + (skipReadingPrefixCache == null ? "" : ", skipReadingPrefixCache=" + skipReadingPrefixCache) + "]";
    }

    /** The record's equality, written out for C1, which calls the generated one's method handles one by one. */
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof RequestRegistered o && promptLength == o.promptLength
                && Objects.equals(requestId, o.requestId) && Objects.equals(promptTokens, o.promptTokens)
                && Objects.equals(maxOffloadTokens, o.maxOffloadTokens) && Objects.equals(maxLoadTokens, o.maxLoadTokens)
                && Objects.equals(skipReadingPrefixCache, o.skipReadingPrefixCache);
    }
}
