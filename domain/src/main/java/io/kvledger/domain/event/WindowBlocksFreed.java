package io.kvledger.domain.event;

import io.kvledger.domain.group.PerGroup;

/**
 * Sliding-window blocks the host freed while the request runs (contract section 7.3): those table entries
 * are null from now on, and a store still reading one fences it until it ends. Not a release.
 */
public record WindowBlocksFreed(String requestId, PerGroup<Integer> blockIds) implements RequestEvent {
}
