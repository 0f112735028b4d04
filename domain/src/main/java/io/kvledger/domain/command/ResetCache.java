package io.kvledger.domain.command;

/** Drops the CPU tier and every job in flight; vLLM: {@code reset_cache}. */
public record ResetCache() implements EngineCommand {

    @Override
    public String name() {
        return "ResetCache";
    }
}
