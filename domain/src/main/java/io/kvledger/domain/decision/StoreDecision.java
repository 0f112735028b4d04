package io.kvledger.domain.decision;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.StoreDeferReason;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.rules.GroupedOffer;
import io.kvledger.domain.state.BlockTable;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;

/**
 * Offers chunks {@code s_g .. S_g-1} to the CPU tier (contract section 4, Stores; 7.4 per group): the offer of
 * every group is one tier decision, a {@code StoreDeferred} naming the offer, or the evictions it needs and one
 * store of the chunks the tier lacks, in every group.
 */
final class StoreDecision {

    private StoreDecision() {
    }

    /**
     * The offer of {@code request} as the command's own event leaves it ({@code c} counted, or the request ended),
     * against the tier the command found: that event changes no chunk the offer reads. An offer the tier holds
     * whole (or an empty one) makes no event: the fold of the command's own event takes it (cursors moved, chunks
     * touched).
     *
     * @return whether a store was scheduled
     */
    static boolean offer(Emitter emitter, RequestState request) {
        EngineConfig config = emitter.state().config();
        CpuTier tier = emitter.state().tier();
        if (request.isTerminal() && !request.hasJobsInFlight() && !request.holdsBlocks()) {
            return false; // retired by its own terminal event: it holds no blocks, so nothing is storable
        }
        String requestId = request.requestId();
        GroupedOffer offer = GroupedOffer.of(config, tier, request);
        if (offer.lacking().isEmpty()) {
            return false;
        }
        int needed = offer.lacking().totalSize();
        int room = tier.capacity() - tier.size();
        if (room < needed) {
            List<String> victims = tier.evictionCandidates(needed - room, new HashSet<>(offer.keys().flat()));
            if (victims.size() < needed - room) {
                // No eviction, no touch, the cursors stay: the offer is made again at the next trigger.
                emitter.emit(new StoreDeferred(requestId, offer.chunks(), StoreDeferReason.TIER_FULL));
                return false;
            }
            emitter.emit(new ChunksEvicted(victims));
        }
        emitter.emit(new StoreJobScheduled(emitter.state().nextJobId(), requestId, offer.lacking(), offer.lackingKeys(),
                sources(config, request, offer.lacking())));
        return true;
    }

    /** All {@code F} blocks of each chunk, per group, in order. */
    private static PerGroup<Integer> sources(EngineConfig config, RequestState request, PerGroup<Integer> chunks) {
        int f = config.blocksPerChunk();
        List<List<Integer>> blocks = new ArrayList<>(chunks.groupCount());
        for (int g = 0; g < chunks.groupCount(); g++) {
            BlockTable table = request.table(g);
            List<Integer> indices = chunks.group(g);
            Integer[] group = new Integer[indices.size() * f];
            for (int c = 0, at = 0; c < indices.size(); c++) {
                int chunk = indices.get(c);
                for (int i = 0; i < f; i++) {
                    group[at++] = table.get(chunk * f + i);
                }
            }
            // List.of's list, which a per-group field takes as it is. An offered chunk has no null entry
            // (GroupedOffer.offeredChunks passes over them), so none is here.
            blocks.add(List.of(group));
        }
        return PerGroup.of(blocks);
    }
}
