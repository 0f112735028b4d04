package io.kvledger.domain.event;

import io.kvledger.domain.group.PerGroup;
import java.util.List;
import java.util.Objects;

/** The host may free these blocks now (per group, in table order; never empty in all groups together). */
public record BlocksReleased(String requestId, PerGroup<Integer> blockIds) implements RequestEvent {

    public BlocksReleased(String requestId, List<Integer> blockIds) {
        this(requestId, PerGroup.single(blockIds));
    }

    /**
     * The record's own equality, written out: the generated one runs through method handles, which C1 (the log
     * tools' compiler) calls one by one, and the audit compares every derived event with its logged one
     * ({@code RecordEqualityTest} holds each component to it).
     */
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof BlocksReleased o && Objects.equals(requestId, o.requestId)
                && Objects.equals(blockIds, o.blockIds);
    }
}
