package io.kvledger.domain.event;

import java.util.List;

/** Chunks dropped from the CPU tier, least recently used first. */
public record ChunksEvicted(List<String> keys) implements EngineEvent {

    public ChunksEvicted {
        keys = List.copyOf(keys);
    }
}
