package io.kvledger.infrastructure.fleet;

import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run of one engine's events does to its CPU tier's keys, folded in memory so that a batch is
 * written as one clear, one delete and one insert, whatever it holds: a key stored, evicted and stored
 * again in one batch ends held, and a reset forgets every change before it. Writing {@link #cleared()},
 * then {@link #removed()}, then {@link #added()} gives the rows that applying the events one by one gives.
 */
final class TierChanges {

    private boolean cleared;
    /** Each key the events touched since the last clear: held ({@code true}) or gone after them. */
    private final Map<String, Boolean> last = new LinkedHashMap<>();

    void apply(EngineEvent event) {
        if (event instanceof ChunksStored stored) {
            stored.keys().forEach(key -> last.put(key, Boolean.TRUE));
        } else if (event instanceof ChunksEvicted evicted) {
            evicted.keys().forEach(key -> last.put(key, Boolean.FALSE));
        } else if (event instanceof CacheReset || event instanceof EngineConfigured) {
            cleared = true;
            last.clear();
        }
    }

    /** Whether the tier was emptied: every row of the engine from before goes. */
    boolean cleared() {
        return cleared;
    }

    /** Keys held before that are gone; empty after a clear, which removed them all. */
    List<String> removed() {
        return cleared ? List.of() : keys(false);
    }

    /** Keys held after the events (some may have been held before). */
    List<String> added() {
        return keys(true);
    }

    boolean isEmpty() {
        return !cleared && last.isEmpty();
    }

    private List<String> keys(boolean held) {
        List<String> keys = new ArrayList<>();
        last.forEach((key, isHeld) -> {
            if (isHeld == held) {
                keys.add(key);
            }
        });
        return keys;
    }
}
