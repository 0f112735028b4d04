package io.kvledger.domain.event;

import java.util.List;
import java.util.Objects;

/** Chunks whose write completed became loadable in the CPU tier. */
public record ChunksStored(List<String> keys) implements EngineEvent {

    public ChunksStored {
        keys = List.copyOf(keys);
    }

    /** The record's equality, written out for C1, which calls the generated one's method handles one by one. */
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof ChunksStored o && Objects.equals(keys, o.keys);
    }
}
