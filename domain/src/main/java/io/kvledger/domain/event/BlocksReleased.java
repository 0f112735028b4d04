package io.kvledger.domain.event;

import io.kvledger.domain.group.PerGroup;
import java.util.List;

/** The host may free these blocks now (per group, in table order; never empty in all groups together). */
public record BlocksReleased(String requestId, PerGroup<Integer> blockIds) implements RequestEvent {

    public BlocksReleased(String requestId, List<Integer> blockIds) {
        this(requestId, PerGroup.single(blockIds));
    }
}
