package io.kvledger.domain.decision;

import io.kvledger.domain.event.RejectionCode;

/**
 * Thrown by a guard to refuse a command. Rejections are ordinary outcomes, not faults, so no stack
 * trace is captured.
 */
final class Rejection extends RuntimeException {

    private final RejectionCode code;

    private Rejection(RejectionCode code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    static Rejection of(RejectionCode code, String message) {
        return new Rejection(code, message);
    }

    static Rejection invalidArgument(String message) {
        return new Rejection(RejectionCode.INVALID_ARGUMENT, message);
    }

    static Rejection invalidState(String message) {
        return new Rejection(RejectionCode.INVALID_STATE, message);
    }

    Decision.Rejected toDecision() {
        return new Decision.Rejected(code, getMessage());
    }
}
