package io.kvledger.domain.command;

import io.kvledger.domain.group.PerGroup;

/**
 * Sliding-window blocks the host freed while the request runs, per group (contract section 7.3). vLLM:
 * {@code remove_skipped_blocks} of its KV cache manager. Known only when the config has {@code groups}.
 */
public record FreeWindowBlocks(String requestId, PerGroup<Integer> blockIds) implements RequestCommand {

    @Override
    public String name() {
        return "FreeWindowBlocks";
    }
}
