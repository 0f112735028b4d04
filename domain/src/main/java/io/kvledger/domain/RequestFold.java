package io.kvledger.domain;

import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.rules.StoreOffer;
import io.kvledger.domain.state.BlockCounts;
import io.kvledger.domain.state.BlockTable;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;

/** The parts of the fold that follow one request through its end. */
final class RequestFold {

    private RequestFold() {
    }

    /**
     * After a command that offers chunks (ComputeTokens, AbortRequest, FinishRequest): an offer the tier
     * already holds whole makes no event, yet the cursor moves to {@code S} and the chunks are touched.
     * The fold derives that here, so a log replays to the same state as the live engine.
     */
    static EngineState afterOfferTrigger(EngineState state, RequestState request) {
        if (state.config().isGrouped()) {
            return GroupedFold.afterOfferTrigger(state, request);
        }
        StoreOffer offer = StoreOffer.of(state.config(), state.tier(), request);
        if (!offer.isHeldWhole()) {
            return state.withRequest(request);
        }
        return state.withRequest(request.withCursor(offer.end())).withTier(state.tier().touch(offer.keys()));
    }

    static EngineState terminated(EngineState state, RequestState live, RequestStatus status) {
        RequestState request = live.withStatus(status).withPendingMatch(null);
        EngineState next = JobFold.fenceStores(state, request);
        return settle(afterOfferTrigger(next, request), request.requestId());
    }

    /** Released blocks leave the table, in table order, one occurrence per released id. */
    static EngineState released(EngineState state, RequestState request, BlocksReleased event) {
        BlockTable table = BlockCounts.remove(request.blockTable(), event.blockIds().flat());
        return settle(state.withRequest(request.withBlockTable(table)), event.requestId());
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
