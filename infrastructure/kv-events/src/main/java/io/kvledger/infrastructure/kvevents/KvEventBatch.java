package io.kvledger.infrastructure.kvevents;

import java.util.List;

/**
 * vLLM's {@code KVEventBatch}: the events of one scheduler step.
 *
 * @param ts               wall-clock seconds since the epoch (vLLM: {@code time.time()})
 * @param events           in the order the engine made them
 * @param dataParallelRank the engine's data-parallel rank, or {@code null} when it has none
 */
public record KvEventBatch(double ts, List<KvEvent> events, Integer dataParallelRank) {

    public KvEventBatch {
        events = List.copyOf(events);
    }
}
