package io.kvledger.domain.command;

/** The request is aborted (vLLM {@code FINISHED_ABORTED}). */
public record AbortRequest(String requestId) implements RequestCommand {

    @Override
    public String name() {
        return "AbortRequest";
    }
}
