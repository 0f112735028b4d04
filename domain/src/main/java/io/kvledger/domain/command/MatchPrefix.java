package io.kvledger.domain.command;

/** Prefix lookup with {@code gpuHitTokens} already cached on the GPU; vLLM: {@code get_num_new_matched_tokens}. */
public record MatchPrefix(String requestId, int gpuHitTokens) implements RequestCommand {

    public MatchPrefix(String requestId) {
        this(requestId, 0);
    }

    @Override
    public String name() {
        return "MatchPrefix";
    }
}
