package io.kvledger.application.audit;

import io.kvledger.application.finding.FindingCode;
import io.kvledger.application.finding.RuleClass;

/**
 * The stable codes of {@code kvledger audit}, with contract section 5's names: its nine required codes
 * first, then the further ones of a complete audit. Each names one rule of section 4, and is in one of
 * the two classes of section 9.2 ({@link RuleClass}). Three codes ({@link #STORE_BEYOND_BOUND},
 * {@link #MATCH_MISMATCH}, {@link #RELEASE_MISMATCH}) have a case of the other class too: each of their
 * findings names its case in its reason ({@link #SAFETY_CASE} or {@link #POLICY_CASE}), and its class is
 * that case's.
 */
public enum AuditCode implements FindingCode {
    /** A store whose keys, chunks and blocks disagree in number, or whose blocks are another chunk's. */
    STORE_SLICE_MISMATCH(RuleClass.SAFETY),
    /** A stored chunk past the token bound {@code O} (e.g. never-computed tokens of an aborted request). */
    STORE_BEYOND_BOUND(RuleClass.SAFETY, true),
    /** A store from blocks the request does not hold. */
    STORE_BEYOND_ALLOCATED(RuleClass.SAFETY),
    /** A chunk stored twice by one request without a reset between, or a store of a chunk the tier holds. */
    DUPLICATE_STORE(RuleClass.POLICY),
    /** Blocks released while a transfer of the request still reads or writes them, with no flush or fence. */
    RELEASE_WHILE_IN_FLIGHT(RuleClass.SAFETY),
    /** Under FENCE, a fenced block handed out with no {@code FlushRequired} for its store just before. */
    REUSE_WITHOUT_FLUSH(RuleClass.SAFETY),
    /** The tier holding more chunks than its capacity. */
    TIER_OVER_CAPACITY(RuleClass.SAFETY),
    /** A completion of a job never scheduled. */
    UNKNOWN_JOB(RuleClass.SAFETY),
    /** A job ending twice. */
    JOB_COMPLETED_TWICE(RuleClass.SAFETY),

    /** An offer that left out a chunk the tier lacked: neither a job with it nor a {@code StoreDeferred}. */
    STORE_MISSING(RuleClass.POLICY),
    /** One offer made into more than one store job. */
    STORE_SPLIT(RuleClass.POLICY),
    /** A store job or {@code StoreDeferred} that no trigger of its request made. */
    STORE_WITHOUT_TRIGGER(RuleClass.POLICY),
    /** A {@code StoreDeferred} the tier did not need, none where it did, or other {@code chunkIndices}. */
    STORE_DEFERRED_MISMATCH(RuleClass.POLICY),
    /** Evictions that are not the least recently used candidates, or not listed least recently used first. */
    EVICTION_NOT_LRU(RuleClass.POLICY),
    /** An eviction of a pinned, written or offered chunk, of more than needed, or with no store needing room. */
    EVICTION_INVALID(RuleClass.SAFETY),
    /** A failed load whose unpinned chunks are not dropped in the same command. */
    EVICTION_MISSING(RuleClass.SAFETY),
    /** No {@code ChunksStored} after a successful store, or one naming other chunks. */
    CHUNKS_STORED_MISMATCH(RuleClass.SAFETY),
    /** A {@code PrefixMatched} or {@code PrefixMatchDeferred} other than the lookup rules give. */
    MATCH_MISMATCH(RuleClass.POLICY, true),
    /** A load whose chunks, keys or destination blocks are not what its match and the table give. */
    LOAD_MISMATCH(RuleClass.SAFETY),
    /** A load of a chunk the tier does not hold ready. */
    LOAD_NOT_READY(RuleClass.SAFETY),
    /** A job ended after other than {@code workers} completions, or reported successful after a failure. */
    ACK_MISMATCH(RuleClass.SAFETY),
    /** A completion naming another request than its job's, or of the other kind. */
    JOB_MISMATCH(RuleClass.SAFETY),
    /** A completion event of a job below {@code staleBelowJobId}. */
    STALE_JOB_COMPLETED(RuleClass.SAFETY),
    /** A job id scheduled twice. */
    DUPLICATE_JOB_ID(RuleClass.SAFETY),
    /** A preemption with stores in flight, or a reset with jobs in flight, without its {@code FlushRequired}. */
    FLUSH_MISSING(RuleClass.SAFETY),
    /** A {@code FlushRequired} naming other jobs or blocks than the rules give. */
    FLUSH_MISMATCH(RuleClass.POLICY),
    /** A release the rules require that does not come. */
    RELEASE_MISSING(RuleClass.SAFETY),
    /** A release of other blocks than the rules give, or not in table order. */
    RELEASE_MISMATCH(RuleClass.POLICY, true),
    /** A {@code staleBelowJobId} that does not cover the jobs before it, or a later job below it. */
    RESET_MISMATCH(RuleClass.SAFETY),
    /** One key naming two token prefixes, or one prefix under two keys. */
    KEY_MISMATCH(RuleClass.SAFETY),
    /** An event the request's state does not allow, or counts the tokens contradict. */
    STATE_MISMATCH(RuleClass.SAFETY),
    /** The events of one command out of the contract's order, or a second {@code EngineConfigured}. */
    EVENT_ORDER(RuleClass.SAFETY),
    /** An event of a request never registered. */
    UNKNOWN_REQUEST(RuleClass.SAFETY),
    /** A request registered twice. */
    DUPLICATE_REQUEST(RuleClass.SAFETY),

    /** A {@code WindowBlocksFreed} outside RUNNING, naming no block, one twice, a FULL group's, one not in the table or inside the window (7.3). */
    WINDOW_FREE_MISMATCH(RuleClass.SAFETY),
    /** A {@code BlocksAllocated} handing out a block a sliding-window table still holds, naming one twice or one the request holds (7.3). */
    BLOCK_STILL_HELD(RuleClass.SAFETY),
    /** A {@code BlocksAllocated} with a null entry at a position section 7.3 does not allow. */
    NULL_ENTRY_MISMATCH(RuleClass.SAFETY),
    /** A stored sliding-window chunk that the alignment rule of section 7.4 passes over. */
    STORE_NOT_OFFERED(RuleClass.POLICY);

    /** How a reason names the safety case of a code that has cases of both classes. */
    public static final String SAFETY_CASE = "safety case: ";
    /** How a reason names the policy case of a code that has cases of both classes. */
    public static final String POLICY_CASE = "policy case: ";

    private final RuleClass ruleClass;
    private final boolean hasCases;

    AuditCode(RuleClass ruleClass) {
        this(ruleClass, false);
    }

    /** @param hasCases whether a finding of this code may be of the other class (its reason says which) */
    AuditCode(RuleClass ruleClass, boolean hasCases) {
        this.ruleClass = ruleClass;
        this.hasCases = hasCases;
    }

    /** The class of contract 9.2's table: for a code with cases of both classes, the class its row names. */
    @Override
    public RuleClass ruleClass() {
        return ruleClass;
    }

    /**
     * A finding's class: for a code with cases of both classes, the case its reason names (a line whose
     * reasons include a safety case is safety), else the code's class.
     */
    @Override
    public RuleClass ruleClass(String reason) {
        if (!hasCases || reason == null) {
            return ruleClass;
        }
        if (reason.contains(SAFETY_CASE)) {
            return RuleClass.SAFETY;
        }
        return reason.contains(POLICY_CASE) ? RuleClass.POLICY : ruleClass;
    }

    /** Whether a finding of this code may be of either class, its reason naming the case. */
    public boolean hasCases() {
        return hasCases;
    }

    /** The reason with the case it names appended (for a code with cases of both classes). */
    static String withCase(String reason, RuleClass caseClass, String why) {
        return reason + "; " + (caseClass == RuleClass.SAFETY ? SAFETY_CASE : POLICY_CASE) + why;
    }
}
