package io.kvledger.domain.decision;

import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.DeferReason;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import io.kvledger.domain.state.TierChunk;
import java.util.ArrayList;
import java.util.List;

/**
 * Prefix lookup (contract section 4, Lookup; section 7.5 per group, which with one {@code FULL} group is section
 * 4's): the largest hit end {@code N} every group can serve, the chunks {@code R_g(N)} each needs (a sliding group
 * only those inside the window of {@code N}, an eagle group also chunk {@code e_g}, not loaded), the per-group
 * minimum hit.
 */
final class LookupDecision {

    private LookupDecision() {
    }

    static void match(Emitter emitter, RequestState request, MatchPrefix command) {
        EngineConfig config = emitter.state().config();
        int hit = command.gpuHitTokens();
        if (hit < 0 || hit % config.gpuBlockSize() != 0 || hit > request.numTokens()) {
            throw Rejection.invalidArgument("gpuHitTokens must be a multiple of " + config.gpuBlockSize()
                    + " in 0.." + request.numTokens() + ", was " + hit);
        }
        if (request.status() != RequestStatus.WAITING && request.status() != RequestStatus.PREEMPTED) {
            throw Rejection.invalidState("MatchPrefix needs a WAITING or PREEMPTED request; " + request.requestId()
                    + " is " + request.status());
        }
        String id = request.requestId();
        if (request.hasJobsInFlight()) {
            emitter.emit(new PrefixMatchDeferred(id, hit, DeferReason.TRANSFER_IN_FLIGHT));
            return;
        }
        if (request.skipsPrefixCache()) {
            // Contract 9.1: the tier is not examined (no deferral for a chunk in flight) and nothing is touched.
            emitter.emit(none(id, hit, config.groupCount()));
            return;
        }
        matchInTier(emitter, request, hit);
    }

    /** Called once the request checks passed and the request has no job in flight. */
    private static void matchInTier(Emitter emitter, RequestState request, int hit) {
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
        int[] heldEnds = heldEnds(config, tier, request, hit);
        long end = -1;
        for (long candidate = reach; candidate > hit; candidate = previousCandidate(config, candidate)) {
            if (servedByEveryGroup(config, tier, request, hit, candidate, heldEnds)) {
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
            int to = endChunk(config, g, end);
            List<Integer> chunks = new ArrayList<>(Math.max(0, to - firstNeeded(config, g, hit, end)));
            for (int chunk = firstNeeded(config, g, hit, end); chunk < to; chunk++) {
                chunks.add(chunk);
            }
            hits.add(chunks);
        }
        emitter.emit(new PrefixMatched(id, hit, (int) (end - hit), PerGroup.of(hits)));
    }

    /**
     * Per {@code FULL} group, the end of the run of chunks the tier holds from {@code a_g} on (at most {@code K_g}):
     * a {@code FULL} group needs every chunk from {@code a_g}, so one scan answers every candidate hit end. A
     * sliding group's needs move with the window; its entry is -1 and each candidate looks its chunks up.
     */
    private static int[] heldEnds(EngineConfig config, CpuTier tier, RequestState request, int hit) {
        int[] ends = new int[config.groupCount()];
        for (int g = 0; g < ends.length; g++) {
            if (config.group(g).isSliding()) {
                ends[g] = -1;
                continue;
            }
            int known = request.keyCount(config, g);
            int chunk = hit / config.chunkTokens(g);
            while (chunk < known && tier.holds(request.key(config, g, chunk))) {
                chunk++;
            }
            ends[g] = chunk;
        }
        return ends;
    }

    /** Every group has the keys {@code R_g(N)} reaches ({@code e_g + x_g <= K_g}) and the tier holds them all. */
    private static boolean servedByEveryGroup(EngineConfig config, CpuTier tier, RequestState request, int hit, long end,
                                              int[] heldEnds) {
        for (int g = 0; g < config.groupCount(); g++) {
            int to = endChunk(config, g, end) + config.group(g).eagleChunks();
            if (to > request.keyCount(config, g)) {
                return false;
            }
            if (heldEnds[g] >= 0) {
                if (to > heldEnds[g]) {
                    return false;
                }
                continue;
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
