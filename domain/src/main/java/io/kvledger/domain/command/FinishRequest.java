package io.kvledger.domain.command;

/** The request finished normally. */
public record FinishRequest(String requestId, FinishReason reason) implements RequestCommand {

    @Override
    public String name() {
        return "FinishRequest";
    }
}
