package io.kvledger.domain.state;

import io.kvledger.domain.group.PerGroup;
import java.util.List;

/**
 * An unused {@code PrefixMatched}: the value the request's next allocation may load.
 *
 * @param gpuHitTokens   {@code L}
 * @param externalTokens tokens the hit chunks add past {@code L} (0 when there is nothing to load)
 * @param hitChunks      chunk indices {@code a .. a+h-1}, per group
 */
public record PrefixMatch(int gpuHitTokens, int externalTokens, PerGroup<Integer> hitChunks) {

    public PrefixMatch(int gpuHitTokens, int externalTokens, List<Integer> hitChunks) {
        this(gpuHitTokens, externalTokens, PerGroup.single(hitChunks));
    }

    /** {@code a + h}: the first chunk index past the hits (of group 0). */
    public int endChunk() {
        List<Integer> hits = hitChunks.group(0);
        return hits.isEmpty() ? 0 : hits.get(hits.size() - 1) + 1;
    }
}
