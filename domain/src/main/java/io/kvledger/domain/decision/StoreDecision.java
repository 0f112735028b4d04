package io.kvledger.domain.decision;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.StoreDeferReason;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.rules.StoreOffer;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.RequestState;
import java.util.HashSet;
import java.util.List;

/** Offers chunks {@code s .. S-1} to the CPU tier (contract section 4, Stores). */
final class StoreDecision {

    private StoreDecision() {
    }

    /**
     * Called after the command's own event has been folded. An offer the tier holds whole was already
     * taken by the fold (cursor moved, chunks touched), so it reads as empty here.
     */
    static void offer(Emitter emitter, String requestId) {
        EngineConfig config = emitter.state().config();
        if (config.isGrouped()) {
            GroupedStoreDecision.offer(emitter, requestId);
            return;
        }
        CpuTier tier = emitter.state().tier();
        RequestState request = emitter.request(requestId);
        if (request == null) {
            return; // retired by its own terminal event: it holds no blocks, so nothing is storable
        }
        StoreOffer offer = StoreOffer.of(config, tier, request);
        if (offer.lacking().isEmpty()) {
            return;
        }
        int needed = offer.lacking().size();
        int room = tier.capacity() - tier.size();
        if (room < needed) {
            List<String> victims = tier.evictionCandidates(needed - room, new HashSet<>(offer.keys()));
            if (victims.size() < needed - room) {
                // No eviction, no touch, the cursor stays: the offer is made again at the next trigger.
                emitter.emit(new StoreDeferred(requestId, offer.chunks(), StoreDeferReason.TIER_FULL));
                return;
            }
            emitter.emit(new ChunksEvicted(victims));
        }
        List<Integer> source = StoreOffer.sourceBlocks(request, offer.lacking(), config.blocksPerChunk());
        emitter.emit(new StoreJobScheduled(emitter.state().nextJobId(), requestId, offer.lacking(),
                offer.lackingKeys(), source));
    }
}
