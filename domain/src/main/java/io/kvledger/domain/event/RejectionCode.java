package io.kvledger.domain.event;

/** Stable codes of {@link CommandRejected} (contract section 4, Bad input). */
public enum RejectionCode {
    INVALID_ARGUMENT,
    UNKNOWN_REQUEST,
    DUPLICATE_REQUEST,
    REQUEST_TERMINATED,
    INVALID_STATE,
    UNKNOWN_JOB,
    STALE_JOB,
    JOB_ALREADY_COMPLETE
}
