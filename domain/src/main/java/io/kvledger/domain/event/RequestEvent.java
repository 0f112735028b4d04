package io.kvledger.domain.event;

/** An event about one request. */
public sealed interface RequestEvent extends EngineEvent
        permits RequestRegistered, PrefixMatched, PrefixMatchDeferred, BlocksAllocated, LoadJobScheduled,
        TokensComputed, TokensRejected, TokensAppended, StoreJobScheduled, StoreDeferred,
        StoreJobCompleted, LoadJobCompleted, TransferAcknowledged, RequestPreempted, RequestAborted,
        RequestFinished, BlocksReleased, WindowBlocksFreed {

    String requestId();
}
