package io.kvledger.application.audit;

/**
 * The stable codes of {@code kvledger audit}: the first nine are contract section 5's; the rest name
 * further rules of section 4 whose breach would corrupt data or make the log unreadable.
 */
public enum AuditCode {
    /** A store whose keys, chunks and blocks disagree in number, or whose blocks are another chunk's. */
    STORE_SLICE_MISMATCH,
    /** A stored chunk past the token bound {@code O} (e.g. never-computed tokens of an aborted request). */
    STORE_BEYOND_BOUND,
    /** A store from blocks the request does not hold. */
    STORE_BEYOND_ALLOCATED,
    /** A chunk stored twice by one request without a reset between. */
    DUPLICATE_STORE,
    /** Blocks released while a transfer of the request still reads or writes them, with no flush or fence. */
    RELEASE_WHILE_IN_FLIGHT,
    /** Under FENCE, a fenced block handed out with no {@code FlushRequired} for its store just before. */
    REUSE_WITHOUT_FLUSH,
    /** The tier holding more chunks than its capacity. */
    TIER_OVER_CAPACITY,
    /** A completion of a job never scheduled (or not of this kind, or not of this request). */
    UNKNOWN_JOB,
    /** A job ending twice (a reset ends every job in flight). */
    JOB_COMPLETED_TWICE,
    /** A job ended before {@code workers} completions arrived: a worker may still be copying. */
    JOB_ENDED_EARLY,
    /** A job scheduled under the id of a job still in flight: their completions cannot be told apart. */
    JOB_ID_REUSED,
    /** A load whose chunks, keys or blocks disagree in number, or differ from its match and table. */
    LOAD_SLICE_MISMATCH,
    /** A load of a chunk the tier does not hold ready: absent, or its write still in flight. */
    LOAD_NOT_READY,
    /** A key that does not follow its chunk's tokens: it names two token prefixes, or a prefix has two keys. */
    KEY_MISMATCH
}
