package io.kvledger.domain.state;

import java.util.List;

/**
 * An unused {@code PrefixMatched}: the value the request's next allocation may load.
 *
 * @param gpuHitTokens   {@code L}
 * @param externalTokens tokens the hit chunks add past {@code L} (0 when there is nothing to load)
 * @param hitChunks      chunk indices {@code a .. a+h-1}
 */
public record PrefixMatch(int gpuHitTokens, int externalTokens, List<Integer> hitChunks) {

    public PrefixMatch {
        hitChunks = List.copyOf(hitChunks);
    }

    /** {@code a + h}: the first chunk index past the hits. */
    public int endChunk() {
        return hitChunks.isEmpty() ? 0 : hitChunks.get(hitChunks.size() - 1) + 1;
    }
}
