package io.kvledger.domain.event;

import java.util.List;

/** New GPU blocks appended to the request's table. */
public record BlocksAllocated(String requestId, List<Integer> blockIds, int externalTokens) implements RequestEvent {

    public BlocksAllocated {
        blockIds = List.copyOf(blockIds);
    }
}
