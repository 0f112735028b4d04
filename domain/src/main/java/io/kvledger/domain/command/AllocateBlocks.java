package io.kvledger.domain.command;

import java.util.List;

/** GPU blocks appended to the table; {@code externalTokens > 0} starts a load. vLLM: {@code update_state_after_alloc}. */
public record AllocateBlocks(String requestId, List<Integer> blockIds, int externalTokens) implements RequestCommand {

    public AllocateBlocks {
        blockIds = List.copyOf(blockIds);
    }

    public AllocateBlocks(String requestId, List<Integer> blockIds) {
        this(requestId, blockIds, 0);
    }

    @Override
    public String name() {
        return "AllocateBlocks";
    }
}
