package io.kvledger.domain.event;

import io.kvledger.domain.group.PerGroup;
import java.util.List;
import java.util.Objects;

/**
 * The answer of a lookup: {@code c} becomes {@code gpuHitTokens}; a later allocation may load {@code
 * hitChunks} (per group).
 */
public record PrefixMatched(String requestId, int gpuHitTokens, int externalTokens, PerGroup<Integer> hitChunks)
        implements RequestEvent {

    public PrefixMatched(String requestId, int gpuHitTokens, int externalTokens, List<Integer> hitChunks) {
        this(requestId, gpuHitTokens, externalTokens, PerGroup.single(hitChunks));
    }

    /** The record's equality, written out for C1, which calls the generated one's method handles one by one. */
    @Override
    public boolean equals(Object other) {
        return this == other || other instanceof PrefixMatched o && gpuHitTokens == o.gpuHitTokens
                && externalTokens == o.externalTokens && Objects.equals(requestId, o.requestId)
                && Objects.equals(hitChunks, o.hitChunks);
    }
}
