package io.kvledger.domain.event;

/** Why a lookup was deferred. */
public enum DeferReason {
    /** The request itself has a job in flight. */
    TRANSFER_IN_FLIGHT,
    /** A hit chunk is still being written to the tier. */
    CHUNK_WRITE_IN_FLIGHT,
    /** Another request is loading a hit chunk. */
    CHUNK_BEING_LOADED
}
