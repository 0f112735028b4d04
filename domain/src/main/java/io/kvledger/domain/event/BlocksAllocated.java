package io.kvledger.domain.event;

import io.kvledger.domain.group.PerGroup;
import java.util.List;
import java.util.Objects;

/** New GPU blocks appended to the request's tables, per group ({@code null}: a sliding group's null block). */
public record BlocksAllocated(String requestId, PerGroup<Integer> blockIds, int externalTokens) implements RequestEvent {

    public BlocksAllocated(String requestId, List<Integer> blockIds, int externalTokens) {
        this(requestId, PerGroup.single(blockIds), externalTokens);
    }

    /** The record's equality, written out for C1, which calls the generated one's method handles one by one. */
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof BlocksAllocated o && externalTokens == o.externalTokens
                && Objects.equals(requestId, o.requestId) && Objects.equals(blockIds, o.blockIds);
    }
}
