package io.kvledger.domain.command;

/** Scheduled speculative tokens that verification rejected. */
public record RejectTokens(String requestId, int tokens) implements RequestCommand {

    @Override
    public String name() {
        return "RejectTokens";
    }
}
