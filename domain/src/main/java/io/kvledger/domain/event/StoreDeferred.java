package io.kvledger.domain.event;

import io.kvledger.domain.group.PerGroup;
import java.util.List;

/**
 * The tier could not make room for the offered chunks (per group: the offer); nothing changed and the
 * offer is made again later.
 */
public record StoreDeferred(String requestId, PerGroup<Integer> chunkIndices, StoreDeferReason reason) implements RequestEvent {

    public StoreDeferred(String requestId, List<Integer> chunkIndices, StoreDeferReason reason) {
        this(requestId, PerGroup.single(chunkIndices), reason);
    }
}
