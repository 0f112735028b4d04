package io.kvledger.domain.event;

import java.util.List;

/** Chunks to copy from the source {@code blockIds} ({@code F} per chunk) into the CPU tier. */
public record StoreJobScheduled(long jobId, String requestId, List<Integer> chunkIndices, List<String> keys,
                                List<Integer> blockIds) implements RequestEvent {

    public StoreJobScheduled {
        chunkIndices = List.copyOf(chunkIndices);
        keys = List.copyOf(keys);
        blockIds = List.copyOf(blockIds);
    }
}
