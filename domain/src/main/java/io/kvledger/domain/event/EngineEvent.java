package io.kvledger.domain.event;

/**
 * An event of the log (contract section 3). The state of an engine is the fold of its events,
 * and nothing else changes it.
 */
public sealed interface EngineEvent
        permits EngineConfigured, RequestEvent, ChunksStored, ChunksEvicted, FlushRequired, CacheReset,
        CommandRejected {
}
