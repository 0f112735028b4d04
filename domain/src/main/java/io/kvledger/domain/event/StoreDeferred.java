package io.kvledger.domain.event;

import java.util.List;

/**
 * The tier could not make room for the offered chunks; nothing changed and the offer is made again
 * later.
 */
public record StoreDeferred(String requestId, List<Integer> chunkIndices, StoreDeferReason reason) implements RequestEvent {

    public StoreDeferred {
        chunkIndices = List.copyOf(chunkIndices);
    }
}
