package io.kvledger.domain.event;

import io.kvledger.domain.group.PerGroup;
import java.util.List;

/** Chunks to copy from the CPU tier into the destination {@code blockIds}, per group. */
public record LoadJobScheduled(long jobId, String requestId, PerGroup<Integer> chunkIndices, PerGroup<String> keys,
                               PerGroup<Integer> blockIds) implements RequestEvent {

    public LoadJobScheduled(long jobId, String requestId, List<Integer> chunkIndices, List<String> keys,
                            List<Integer> blockIds) {
        this(jobId, requestId, PerGroup.single(chunkIndices), PerGroup.single(keys), PerGroup.single(blockIds));
    }
}
