package io.kvledger.domain.event;

import java.util.List;

/** The host must wait for these jobs before it reuses these blocks. */
public record FlushRequired(List<Long> jobIds, List<Integer> blockIds) implements EngineEvent {

    public FlushRequired {
        jobIds = List.copyOf(jobIds);
        blockIds = List.copyOf(blockIds);
    }
}
