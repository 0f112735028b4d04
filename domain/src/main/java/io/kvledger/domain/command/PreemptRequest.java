package io.kvledger.domain.command;

/** The scheduler preempts the request: its blocks are freed and it will be recomputed. */
public record PreemptRequest(String requestId) implements RequestCommand {

    @Override
    public String name() {
        return "PreemptRequest";
    }
}
