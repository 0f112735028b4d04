package io.kvledger.domain.config;

/** When a terminated request's GPU blocks may be handed back to the host (contract section 4, Release). */
public enum ReleasePolicy {
    /** Release at once; the source blocks of in-flight stores are fenced until each store ends. */
    FENCE,
    /** Release only once none of the request's own stores and loads is in flight. */
    DELAY_FREE
}
