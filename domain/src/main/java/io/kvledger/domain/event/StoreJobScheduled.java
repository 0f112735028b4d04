package io.kvledger.domain.event;

import io.kvledger.domain.group.PerGroup;
import java.util.List;

/** Chunks to copy from the source {@code blockIds} ({@code F} per chunk) into the CPU tier, per group. */
public record StoreJobScheduled(long jobId, String requestId, PerGroup<Integer> chunkIndices, PerGroup<String> keys,
                                PerGroup<Integer> blockIds) implements RequestEvent {

    public StoreJobScheduled(long jobId, String requestId, List<Integer> chunkIndices, List<String> keys,
                             List<Integer> blockIds) {
        this(jobId, requestId, PerGroup.single(chunkIndices), PerGroup.single(keys), PerGroup.single(blockIds));
    }
}
