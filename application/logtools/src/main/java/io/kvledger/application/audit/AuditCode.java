package io.kvledger.application.audit;

import io.kvledger.application.finding.FindingCode;

/**
 * The stable codes of {@code kvledger audit}, with contract section 5's names: its nine required codes
 * first, then the further ones of a complete audit. Each names one rule of section 4.
 */
public enum AuditCode implements FindingCode {
    /** A store whose keys, chunks and blocks disagree in number, or whose blocks are another chunk's. */
    STORE_SLICE_MISMATCH,
    /** A stored chunk past the token bound {@code O} (e.g. never-computed tokens of an aborted request). */
    STORE_BEYOND_BOUND,
    /** A store from blocks the request does not hold. */
    STORE_BEYOND_ALLOCATED,
    /** A chunk stored twice by one request without a reset between, or a store of a chunk the tier holds. */
    DUPLICATE_STORE,
    /** Blocks released while a transfer of the request still reads or writes them, with no flush or fence. */
    RELEASE_WHILE_IN_FLIGHT,
    /** Under FENCE, a fenced block handed out with no {@code FlushRequired} for its store just before. */
    REUSE_WITHOUT_FLUSH,
    /** The tier holding more chunks than its capacity. */
    TIER_OVER_CAPACITY,
    /** A completion of a job never scheduled. */
    UNKNOWN_JOB,
    /** A job ending twice. */
    JOB_COMPLETED_TWICE,

    /** An offer that left out a chunk the tier lacked: neither a job with it nor a {@code StoreDeferred}. */
    STORE_MISSING,
    /** One offer made into more than one store job. */
    STORE_SPLIT,
    /** A store job or {@code StoreDeferred} that no trigger of its request made. */
    STORE_WITHOUT_TRIGGER,
    /** A {@code StoreDeferred} the tier did not need, none where it did, or other {@code chunkIndices}. */
    STORE_DEFERRED_MISMATCH,
    /** Evictions that are not the least recently used candidates, or not listed least recently used first. */
    EVICTION_NOT_LRU,
    /** An eviction of a pinned, written or offered chunk, of more than needed, or with no store needing room. */
    EVICTION_INVALID,
    /** A failed load whose unpinned chunks are not dropped in the same command. */
    EVICTION_MISSING,
    /** No {@code ChunksStored} after a successful store, or one naming other chunks. */
    CHUNKS_STORED_MISMATCH,
    /** A {@code PrefixMatched} or {@code PrefixMatchDeferred} other than the lookup rules give. */
    MATCH_MISMATCH,
    /** A load whose chunks, keys or destination blocks are not what its match and the table give. */
    LOAD_MISMATCH,
    /** A load of a chunk the tier does not hold ready. */
    LOAD_NOT_READY,
    /** A job ended after other than {@code workers} completions, or reported successful after a failure. */
    ACK_MISMATCH,
    /** A completion naming another request than its job's, or of the other kind. */
    JOB_MISMATCH,
    /** A completion event of a job below {@code staleBelowJobId}. */
    STALE_JOB_COMPLETED,
    /** A job id scheduled twice. */
    DUPLICATE_JOB_ID,
    /** A preemption with stores in flight, or a reset with jobs in flight, without its {@code FlushRequired}. */
    FLUSH_MISSING,
    /** A {@code FlushRequired} naming other jobs or blocks than the rules give. */
    FLUSH_MISMATCH,
    /** A release the rules require that does not come. */
    RELEASE_MISSING,
    /** A release of other blocks than the rules give, or not in table order. */
    RELEASE_MISMATCH,
    /** A {@code staleBelowJobId} that does not cover the jobs before it, or a later job below it. */
    RESET_MISMATCH,
    /** One key naming two token prefixes, or one prefix under two keys. */
    KEY_MISMATCH,
    /** An event the request's state does not allow, or counts the tokens contradict. */
    STATE_MISMATCH,
    /** The events of one command out of the contract's order, or a second {@code EngineConfigured}. */
    EVENT_ORDER,
    /** An event of a request never registered. */
    UNKNOWN_REQUEST,
    /** A request registered twice. */
    DUPLICATE_REQUEST,

    /** A {@code WindowBlocksFreed} outside RUNNING, naming no block, one twice, a FULL group's, one not in the table or inside the window (7.3). */
    WINDOW_FREE_MISMATCH,
    /** A {@code BlocksAllocated} handing out a block a sliding-window table still holds, naming one twice or one the request holds (7.3). */
    BLOCK_STILL_HELD,
    /** A {@code BlocksAllocated} with a null entry at a position section 7.3 does not allow. */
    NULL_ENTRY_MISMATCH,
    /** A stored sliding-window chunk that the alignment rule of section 7.4 passes over. */
    STORE_NOT_OFFERED
}
