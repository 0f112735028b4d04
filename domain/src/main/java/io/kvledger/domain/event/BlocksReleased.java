package io.kvledger.domain.event;

import java.util.List;

/** The host may free these blocks now (in table order; never empty). */
public record BlocksReleased(String requestId, List<Integer> blockIds) implements RequestEvent {

    public BlocksReleased {
        blockIds = List.copyOf(blockIds);
    }
}
