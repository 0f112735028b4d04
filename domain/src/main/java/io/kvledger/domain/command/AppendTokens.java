package io.kvledger.domain.command;

import java.util.List;

/** Sampled output tokens appended to the request. */
public record AppendTokens(String requestId, List<Integer> tokens) implements RequestCommand {

    public AppendTokens {
        tokens = List.copyOf(tokens);
    }

    @Override
    public String name() {
        return "AppendTokens";
    }
}
