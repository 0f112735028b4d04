package io.kvledger.application.audit;

import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;

/** How a reason names a request: live, retired (terminated and settled) or unknown. */
final class Requests {

    private Requests() {
    }

    static String named(EngineState state, String requestId) {
        RequestState live = state.heldRequest(requestId);
        if (live != null) {
            return "request " + requestId + " (" + live.status() + ")";
        }
        RequestStatus retired = state.retired().getOrElse(requestId, null);
        if (retired != null) {
            return "request " + requestId + " (" + retired + ", retired: no blocks, no jobs)";
        }
        return "request " + requestId + " (unknown: never registered)";
    }
}
