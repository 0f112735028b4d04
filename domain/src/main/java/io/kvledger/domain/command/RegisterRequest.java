package io.kvledger.domain.command;

import io.kvledger.domain.state.HashedPrompt;
import java.util.List;

/**
 * A new request with its prompt; vLLM: request added. The three controls of contract section 9.1 are
 * optional: {@code null} means not given (the behaviour of revision 5); their ranges are the decision's
 * to check.
 *
 * @param maxOffloadTokens       never store a chunk of this request that reaches past this many tokens
 * @param maxLoadTokens          load at most this many tokens beyond the GPU hit; 0: never load
 * @param skipReadingPrefixCache never look the request up in the CPU tier
 */
public record RegisterRequest(String requestId, List<Integer> promptTokens, Integer maxOffloadTokens,
                              Integer maxLoadTokens, Boolean skipReadingPrefixCache) implements RequestCommand {

    public RegisterRequest {
        // A prompt hashed ahead (the audit's rebuild of a logged registration) is immutable already: kept as it is,
        // so its hashes go with it and the event the rules give compares to the logged one by identity.
        promptTokens = promptTokens instanceof HashedPrompt ? promptTokens : List.copyOf(promptTokens);
    }

    /** A request without controls. */
    public RegisterRequest(String requestId, List<Integer> promptTokens) {
        this(requestId, promptTokens, null, null, null);
    }

    /** Whether any of the controls was given. */
    public boolean hasControls() {
        return maxOffloadTokens != null || maxLoadTokens != null || skipReadingPrefixCache != null;
    }

    /** As the record's own, with each control only when given (so a request without them reads as before). */
    @Override
    public String toString() {
        return "RegisterRequest[requestId=" + requestId + ", promptTokens=" + promptTokens
                + (maxOffloadTokens == null ? "" : ", maxOffloadTokens=" + maxOffloadTokens)
                + (maxLoadTokens == null ? "" : ", maxLoadTokens=" + maxLoadTokens)
                + (skipReadingPrefixCache == null ? "" : ", skipReadingPrefixCache=" + skipReadingPrefixCache) + "]";
    }

    @Override
    public String name() {
        return "RegisterRequest";
    }
}
