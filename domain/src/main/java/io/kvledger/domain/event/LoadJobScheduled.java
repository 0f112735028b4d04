package io.kvledger.domain.event;

import java.util.List;

/** Chunks to copy from the CPU tier into the destination {@code blockIds}. */
public record LoadJobScheduled(long jobId, String requestId, List<Integer> chunkIndices, List<String> keys, List<Integer> blockIds) implements RequestEvent {

    public LoadJobScheduled {
        chunkIndices = List.copyOf(chunkIndices);
        keys = List.copyOf(keys);
        blockIds = List.copyOf(blockIds);
    }
}
