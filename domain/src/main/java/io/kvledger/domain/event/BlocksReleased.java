package io.kvledger.domain.event;

import io.kvledger.domain.group.PerGroup;
import java.util.List;
import java.util.Objects;

/** The host may free these blocks now (per group, in table order; never empty in all groups together). */
public record BlocksReleased(String requestId, PerGroup<Integer> blockIds) implements RequestEvent {

    public BlocksReleased(String requestId, List<Integer> blockIds) {
        this(requestId, PerGroup.single(blockIds));
    }

    /** The record's equality, written out for C1, which calls the generated one's method handles one by one. */
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof BlocksReleased o && Objects.equals(requestId, o.requestId)
                && Objects.equals(blockIds, o.blockIds);
    }
}
