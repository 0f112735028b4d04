package io.kvledger.domain.event;

import java.util.List;
import java.util.Objects;

/** Chunks dropped from the CPU tier, least recently used first. */
public record ChunksEvicted(List<String> keys) implements EngineEvent {

    public ChunksEvicted {
        keys = List.copyOf(keys);
    }

    /** The record's equality, written out for C1, which calls the generated one's method handles one by one. */
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof ChunksEvicted o && Objects.equals(keys, o.keys);
    }
}
