package io.kvledger.application.check;

import io.kvledger.application.finding.FindingCode;

/** Finding codes of the log checks, the simulated host and the shrinker that are not audit codes. */
public enum CheckCode implements FindingCode {
    /** The first event of a log is not {@code EngineConfigured}. */
    NOT_CONFIGURED,
    /** A {@code BlocksReleased} that names no block. */
    EMPTY_RELEASE,
    /** A job id other than the next one in scheduling order (kvledger's own numbering). */
    JOB_ID_OUT_OF_ORDER,
    /** A chunk evicted while a load still reads it. */
    PINNED_EVICTED,
    /** The log folds to another state than the engine's. */
    REPLAY_MISMATCH,
    /** No event for many simulated steps while work is pending. */
    STALLED,
    /** No request finished or was aborted for many simulated steps while some are live (a livelock). */
    NO_PROGRESS,
    /** The engine threw while deciding a command. */
    EXCEPTION,
    /** The host's forward pass writes a block a transfer still reads or writes. */
    WRITE_DURING_TRANSFER,
    /** Tokens computed past the blocks the host allocated. */
    COMPUTE_BEYOND_TABLE,
    /** A {@code FlushRequired} naming a job never scheduled. */
    FLUSH_OF_UNKNOWN_JOB,
    /** A release of a block the request does not hold. */
    RELEASE_OF_UNHELD_BLOCK,
    /** A refusal the simulated host never provokes. */
    UNEXPECTED_REJECTION,
    /** The engine settled a request whose blocks the host still holds. */
    BLOCKS_NEVER_RELEASED,
    /** The host and the engine disagree on a request's tokens. */
    HOST_DESYNC
}
