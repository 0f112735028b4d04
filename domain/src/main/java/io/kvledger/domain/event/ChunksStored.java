package io.kvledger.domain.event;

import java.util.List;

/** Chunks whose write completed became loadable in the CPU tier. */
public record ChunksStored(List<String> keys) implements EngineEvent {

    public ChunksStored {
        keys = List.copyOf(keys);
    }
}
