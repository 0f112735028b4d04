package io.kvledger.domain.event;

import io.kvledger.domain.group.PerGroup;
import java.util.List;

/** New GPU blocks appended to the request's tables, per group ({@code null}: a sliding group's null block). */
public record BlocksAllocated(String requestId, PerGroup<Integer> blockIds, int externalTokens) implements RequestEvent {

    public BlocksAllocated(String requestId, List<Integer> blockIds, int externalTokens) {
        this(requestId, PerGroup.single(blockIds), externalTokens);
    }
}
