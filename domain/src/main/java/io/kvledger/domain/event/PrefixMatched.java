package io.kvledger.domain.event;

import io.kvledger.domain.group.PerGroup;
import java.util.List;

/**
 * The answer of a lookup: {@code c} becomes {@code gpuHitTokens}; a later allocation may load {@code
 * hitChunks} (per group).
 */
public record PrefixMatched(String requestId, int gpuHitTokens, int externalTokens, PerGroup<Integer> hitChunks)
        implements RequestEvent {

    public PrefixMatched(String requestId, int gpuHitTokens, int externalTokens, List<Integer> hitChunks) {
        this(requestId, gpuHitTokens, externalTokens, PerGroup.single(hitChunks));
    }
}
