package io.kvledger.domain.event;

/**
 * The CPU tier and every job in flight were dropped; completions of jobs below {@code staleBelowJobId}
 * are stale.
 */
public record CacheReset(long staleBelowJobId) implements EngineEvent {
}
