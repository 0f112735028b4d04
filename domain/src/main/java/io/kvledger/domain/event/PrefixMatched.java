package io.kvledger.domain.event;

import java.util.List;

/**
 * The answer of a lookup: {@code c} becomes {@code gpuHitTokens}; a later allocation may load {@code
 * hitChunks}.
 */
public record PrefixMatched(String requestId, int gpuHitTokens, int externalTokens, List<Integer> hitChunks) implements RequestEvent {

    public PrefixMatched {
        hitChunks = List.copyOf(hitChunks);
    }
}
