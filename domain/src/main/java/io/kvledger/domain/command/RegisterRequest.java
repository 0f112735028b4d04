package io.kvledger.domain.command;

import java.util.List;

/** A new request with its prompt; vLLM: request added. */
public record RegisterRequest(String requestId, List<Integer> promptTokens) implements RequestCommand {

    public RegisterRequest {
        promptTokens = List.copyOf(promptTokens);
    }

    @Override
    public String name() {
        return "RegisterRequest";
    }
}
