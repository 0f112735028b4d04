package io.kvledger.domain.state;

/** Where a request is in its lifecycle (contract section 4, Request states). */
public enum RequestStatus {
    /** Registered or matched; no AllocateBlocks since registration. */
    WAITING,
    /** Its load job is in flight. */
    LOADING,
    RUNNING,
    /** No AllocateBlocks since preemption. */
    PREEMPTED,
    ABORTED,
    FINISHED;

    public boolean isTerminal() {
        return this == ABORTED || this == FINISHED;
    }
}
