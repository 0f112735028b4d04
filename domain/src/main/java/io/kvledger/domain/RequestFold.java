package io.kvledger.domain;

import io.kvledger.domain.rules.GroupedOffer;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;

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
        GroupedOffer offer = GroupedOffer.of(state.config(), state.tier(), request);
        if (offer.isEmpty()) {
            return state.withRequest(TableFold.advance(request, offer));
        }
        if (!offer.isHeldWhole()) {
            return state.withRequest(request);
        }
        return state.withRequest(TableFold.advance(request, offer)).withTier(TableFold.touch(state.tier(), offer.keys()));
    }

    static EngineState terminated(EngineState state, RequestState live, RequestStatus status) {
        RequestState request = live.withStatus(status).withPendingMatch(null);
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
