package io.kvledger.domain.command;

import io.kvledger.domain.group.PerGroup;
import java.util.List;

/**
 * GPU blocks appended to the tables, per group ({@code null}: a sliding group's null block); {@code
 * externalTokens > 0} starts a load. vLLM: {@code update_state_after_alloc}.
 */
public record AllocateBlocks(String requestId, PerGroup<Integer> blockIds, int externalTokens) implements RequestCommand {

    public AllocateBlocks(String requestId, List<Integer> blockIds, int externalTokens) {
        this(requestId, PerGroup.single(blockIds), externalTokens);
    }

    public AllocateBlocks(String requestId, List<Integer> blockIds) {
        this(requestId, blockIds, 0);
    }

    @Override
    public String name() {
        return "AllocateBlocks";
    }
}
