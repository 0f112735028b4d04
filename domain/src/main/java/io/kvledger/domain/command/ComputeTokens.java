package io.kvledger.domain.command;

/** Tokens scheduled for this step's forward pass; vLLM: {@code num_scheduled_tokens}. */
public record ComputeTokens(String requestId, int tokens) implements RequestCommand {

    @Override
    public String name() {
        return "ComputeTokens";
    }
}
