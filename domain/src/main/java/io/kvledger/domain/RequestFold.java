package io.kvledger.domain;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.rules.GroupedOffer;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import java.util.ArrayList;
import java.util.List;

/** The parts of the fold that follow one request through its end. */
final class RequestFold {

    private RequestFold() {
    }

    /**
     * After a command that offers chunks (ComputeTokens, AbortRequest, FinishRequest): an offer the tier
     * already holds whole makes no event, yet every cursor moves to {@code max(s_g, S_g)} and the chunks are
     * touched; so does an empty offer (every chunk passed over), without a touch. The fold derives that here,
     * so a log replays to the same state as the live engine.
     */
    static EngineState afterOfferTrigger(EngineState state, RequestState request) {
        // request is the one the state holds: it changes in place.
        EngineConfig config = state.config();
        int[] ends = GroupedOffer.ends(config, request);
        if (ends == null) {
            return state; // nothing past any cursor: most decode steps
        }
        // Only whether the tier holds every offered chunk matters here; the first it lacks means a store
        // follows (StoreJobScheduled moves the cursors), so the rest of the offer is not derived.
        CpuTier tier = state.tier();
        List<List<String>> touched = new ArrayList<>(ends.length);
        boolean offered = false;
        for (int g = 0; g < ends.length; g++) {
            List<String> keys = GroupedOffer.offeredKeys(config, request, g, ends[g]);
            for (String key : keys) {
                if (!tier.holds(key)) {
                    return state;
                }
            }
            offered |= !keys.isEmpty();
            touched.add(keys);
        }
        TableFold.advance(request, ends);
        if (!offered) {
            return state; // every chunk passed over: the cursors move, nothing is touched
        }
        // A touch of several groups goes group by group in index order, so a later group's chunks end more recent.
        for (List<String> keys : touched) {
            tier = tier.touch(keys);
        }
        return state.withTier(tier);
    }

    static EngineState terminated(EngineState state, RequestState request, RequestStatus status) {
        request.setStatus(status);
        request.setPendingMatch(null);
        EngineState next = JobFold.fenceStores(state, request);
        return settle(afterOfferTrigger(next, request), request.requestId());
    }

    /** Retires a terminated request once it holds no blocks and has no job in flight. */
    static EngineState settle(EngineState state, String requestId) {
        RequestState request = state.heldRequest(requestId);
        if (request != null && request.isTerminal() && !request.hasJobsInFlight() && !request.holdsBlocks()) {
            return state.retire(request);
        }
        return state;
    }
}
