package io.kvledger.infrastructure.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.state.EngineState;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;

/**
 * A snapshot's orders are canonical (docs/embedded-store.md, "Snapshots"), never a hash order: over every
 * fifth state of two simulated logs (one group; gpt-oss's groups with chunks evicted), requests and retired
 * requests by id, fences and window holds by block id, jobs by job id, the tier's chunks in its LRU order
 * (least recently touched first, ties by key).
 */
class SnapshotOrderTest {

    @Test
    void everyMapOfTheSnapshotIsInItsCanonicalOrder() throws Exception {
        int checked = 0;
        int manyRequests = 0;
        for (String log : List.of("/snapshots/tier-default.jsonl.gz", "/snapshots/tier-gpt-oss.jsonl.gz")) {
            try (InputStream in = new GZIPInputStream(SnapshotOrderTest.class.getResourceAsStream(log))) {
                EventLogReader reader = new EventLogReader(in);
                EngineState state = null;
                int n = 0;
                for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                    state = EngineFold.evolve(state, entry.event());
                    if (n++ % 5 != 0) {
                        continue;
                    }
                    JsonNode json = EventJson.mapper().readTree(StateCodec.encode(state));
                    SnapshotOrderTest.<String>ascending(json.path("requests"), pair -> pair.get(0).asText(), Comparator.<String>naturalOrder(), "requests");
                    ascending(json.path("retired").path("statuses"), pair -> pair.get(0).asText(), Comparator.<String>naturalOrder(),
                            "retired");
                    ascending(json.path("fences"), pair -> pair.get(0).asInt(), Comparator.<Integer>naturalOrder(), "fences");
                    ascending(json.path("windowHolds"), pair -> pair.get(0).asInt(), Comparator.<Integer>naturalOrder(), "windowHolds");
                    ascending(json.path("jobs"), pair -> pair.get(0).asLong(), Comparator.<Long>naturalOrder(), "jobs");
                    ascending(json.path("tier").path("chunks"), pair -> pair.get(1),
                            Comparator.<JsonNode>comparingLong(chunk -> chunk.path("touched").asLong())
                                    .thenComparing(chunk -> chunk.path("key").asText()), "tier");
                    manyRequests += json.path("requests").size() > 8 && json.path("tier").path("chunks").size() > 8 ? 1 : 0;
                    checked++;
                }
            }
        }
        assertTrue(checked > 400 && manyRequests > 100, checked + " states, " + manyRequests + " with many requests and chunks");
    }

    private static <T> void ascending(JsonNode pairs, Function<JsonNode, T> key, Comparator<T> order, String what) {
        if (pairs.isMissingNode() || pairs.isNull()) {
            return;
        }
        List<T> keys = new ArrayList<>();
        pairs.forEach(pair -> keys.add(key.apply(pair)));
        List<T> sorted = new ArrayList<>(keys);
        sorted.sort(order);
        assertEquals(sorted, keys, what);
    }
}
