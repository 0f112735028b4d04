package io.kvledger.domain.decision;

import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.config.EngineConfig;
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

/** Prefix lookup (contract section 4, Lookup). */
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
            emitter.emit(config.isGrouped() ? new PrefixMatched(id, hit, 0, PerGroup.<Integer>empty(config.groupCount()))
                    : new PrefixMatched(id, hit, 0, List.of()));
            return;
        }
        if (config.isGrouped()) {
            GroupedLookupDecision.match(emitter, request, hit);
            return;
        }
        int chunkTokens = config.chunkTokens();
        int fullChunks = examinedChunks(request, hit, chunkTokens);
        if ((long) fullChunks * chunkTokens - hit < chunkTokens) {
            emitter.emit(new PrefixMatched(id, hit, 0, List.of()));
            return;
        }
        int first = hit / chunkTokens;
        CpuTier tier = emitter.state().tier();
        List<Integer> hits = new ArrayList<>();
        for (int chunk = first; chunk < fullChunks; chunk++) {
            TierChunk held = tier.chunk(request.key(chunk, config.blocksPerChunk()));
            if (held == null) {
                break;
            }
            if (!held.ready()) {
                emitter.emit(new PrefixMatchDeferred(id, hit, DeferReason.CHUNK_WRITE_IN_FLIGHT));
                return;
            }
            if (held.pins() > 0) {
                emitter.emit(new PrefixMatchDeferred(id, hit, DeferReason.CHUNK_BEING_LOADED));
                return;
            }
            hits.add(chunk);
        }
        long external = (long) (first + hits.size()) * chunkTokens - hit;
        if (external < chunkTokens) {
            emitter.emit(new PrefixMatched(id, hit, 0, List.of()));
        } else {
            emitter.emit(new PrefixMatched(id, hit, (int) external, hits));
        }
    }

    /**
     * {@code floor(n/C)}, or with the request's {@code maxLoadTokens X} {@code E = min(floor(n/C), floor((L+X)/C))}
     * (contract 9.1): chunks past {@code E-1} are neither examined nor deferred for.
     */
    private static int examinedChunks(RequestState request, int hit, int chunkTokens) {
        int fullChunks = request.numTokens() / chunkTokens;
        Integer maxLoad = request.maxLoadTokens();
        if (maxLoad == null) {
            return fullChunks;
        }
        return (int) Math.min(fullChunks, ((long) hit + maxLoad) / chunkTokens);
    }
}
