package io.kvledger.domain.decision;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.DeferReason;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.TierChunk;
import java.util.ArrayList;
import java.util.List;

/**
 * The lookup of an engine with groups (contract section 7.5): the largest hit end {@code N} every group
 * can serve, the chunks {@code R_g(N)} each needs (a sliding group only those inside the window of
 * {@code N}, an eagle group also chunk {@code e_g}, not loaded), the per-group minimum hit.
 */
final class GroupedLookupDecision {

    private GroupedLookupDecision() {
    }

    /** Called once the request checks passed and the request has no job in flight. */
    static void match(Emitter emitter, RequestState request, int hit) {
        EngineConfig config = emitter.state().config();
        int groups = config.groupCount();
        String id = request.requestId();
        int n = request.numTokens();
        long max = config.hasSlidingGroup() ? n - 1L : n;
        long reach = loadReach(config, request, hit, max);
        for (int g = 0; g < groups; g++) {
            long keyed = (long) request.keyCount(config, g) * config.chunkTokens(g);
            if (Math.min(reach, keyed) - hit < config.chunkTokens(g)) {
                emitter.emit(none(id, hit, groups));
                return;
            }
        }
        CpuTier tier = emitter.state().tier();
        long end = -1;
        for (long candidate = reach; candidate > hit; candidate = previousCandidate(config, candidate)) {
            if (servedByEveryGroup(config, tier, request, hit, candidate)) {
                end = candidate;
                break;
            }
        }
        if (end < 0) {
            emitter.emit(none(id, hit, groups));
            return;
        }
        for (int g = 0; g < groups; g++) {
            int from = firstNeeded(config, g, hit, end);
            int to = endChunk(config, g, end) + config.group(g).eagleChunks();
            for (int chunk = from; chunk < to; chunk++) {
                TierChunk held = tier.chunk(request.key(config, g, chunk));
                if (!held.ready()) {
                    emitter.emit(new PrefixMatchDeferred(id, hit, DeferReason.CHUNK_WRITE_IN_FLIGHT));
                    return;
                }
                if (held.pins() > 0) {
                    emitter.emit(new PrefixMatchDeferred(id, hit, DeferReason.CHUNK_BEING_LOADED));
                    return;
                }
            }
        }
        for (int g = 0; g < groups; g++) {
            if (end - hit < config.chunkTokens(g)) {
                emitter.emit(none(id, hit, groups));
                return;
            }
        }
        List<List<Integer>> hits = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            List<Integer> chunks = new ArrayList<>();
            for (int chunk = firstNeeded(config, g, hit, end); chunk < endChunk(config, g, end); chunk++) {
                chunks.add(chunk);
            }
            hits.add(chunks);
        }
        emitter.emit(new PrefixMatched(id, hit, (int) (end - hit), PerGroup.of(hits)));
    }

    /** Every group has the keys {@code R_g(N)} reaches ({@code e_g + x_g <= K_g}) and the tier holds them all. */
    private static boolean servedByEveryGroup(EngineConfig config, CpuTier tier, RequestState request, int hit, long end) {
        for (int g = 0; g < config.groupCount(); g++) {
            int to = endChunk(config, g, end) + config.group(g).eagleChunks();
            if (to > request.keyCount(config, g)) {
                return false;
            }
            for (int chunk = firstNeeded(config, g, hit, end); chunk < to; chunk++) {
                if (!tier.holds(request.key(config, g, chunk))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The largest hit end the lookup may take: {@code M}, or with the request's {@code maxLoadTokens X}
     * (contract 9.1) {@code R}, {@code L + X} rounded down to the largest value that is {@code M} or a multiple
     * of some {@code C_g} ({@code R = M} when {@code L + X >= M}).
     */
    private static long loadReach(EngineConfig config, RequestState request, int hit, long max) {
        Integer maxLoad = request.maxLoadTokens();
        if (maxLoad == null) {
            return max;
        }
        long limit = (long) hit + maxLoad;
        if (limit >= max) {
            return max;
        }
        long reach = Long.MIN_VALUE;
        for (int g = 0; g < config.groupCount(); g++) {
            int c = config.chunkTokens(g);
            reach = Math.max(reach, limit / c * c);
        }
        return reach;
    }

    /** Only {@code M} and the multiples of some {@code C_g} can be the hit end: the next one below {@code N}. */
    private static long previousCandidate(EngineConfig config, long end) {
        long previous = Long.MIN_VALUE;
        for (int g = 0; g < config.groupCount(); g++) {
            int c = config.chunkTokens(g);
            previous = Math.max(previous, (end - 1) / c * c);
        }
        return previous;
    }

    /** {@code max(a_g, first_g(N))}. */
    private static int firstNeeded(EngineConfig config, int g, int hit, long end) {
        KvCacheGroup group = config.group(g);
        return Math.max(hit / config.chunkTokens(g), group.firstInWindow(end));
    }

    /** {@code e_g = ceil(N / C_g)}. */
    private static int endChunk(EngineConfig config, int g, long end) {
        int c = config.chunkTokens(g);
        return (int) ((end + c - 1) / c);
    }

    private static PrefixMatched none(String id, int hit, int groups) {
        return new PrefixMatched(id, hit, 0, PerGroup.<Integer>empty(groups));
    }
}
