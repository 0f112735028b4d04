package io.kvledger.domain.event;

/** Why a store was deferred. */
public enum StoreDeferReason {
    /** The tier could not make room for the offered chunks. */
    TIER_FULL
}
