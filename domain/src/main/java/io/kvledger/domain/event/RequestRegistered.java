package io.kvledger.domain.event;

import java.util.List;

/** A request is known, with its prompt. */
public record RequestRegistered(String requestId, int promptLength, List<Integer> promptTokens) implements RequestEvent {

    public RequestRegistered {
        promptTokens = List.copyOf(promptTokens);
    }
}
