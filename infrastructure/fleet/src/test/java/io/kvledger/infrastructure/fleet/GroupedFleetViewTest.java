package io.kvledger.infrastructure.fleet;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.application.engine.StepEvents;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.store.jdbc.PostgresStore;
import io.kvledger.infrastructure.store.jdbc.TestPostgres;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The fleet's tier index per (engine, group, key) on a real PostgreSQL: a grouped engine's chunks land in
 * their KV cache group, holders are asked per group, and a view made before groups (no group column) is
 * read as it was, every key in group 0.
 */
@ExtendWith(TestPostgres.class)
class GroupedFleetViewTest {

    private static final Duration PATIENCE = Duration.ofSeconds(120);
    private static final EngineConfig GROUPED = EngineConfig.DEFAULTS.withGroups(
            List.of(KvCacheGroup.full(16), KvCacheGroup.slidingWindow(16, 128), KvCacheGroup.full(16).asEagle()));

    @Test
    void eachKeyIsIndexedInItsGroupAndHoldersAreAskedPerGroup() throws Exception {
        String url = TestPostgres.newDatabase();
        try (PostgresStore store = PostgresStore.open(url, 4)) {
            append(store, "hybrid", 0, List.of(EngineConfigured.of(GROUPED),
                    new ChunksStored(List.of("a", "b", "a/g1", "b/g1", "a/g2"))));
            append(store, "hybrid", 1, List.of(new ChunksEvicted(List.of("b/g1")), new ChunksStored(List.of("c/g1"))));
            append(store, "plain", 0, List.of(EngineConfigured.of(EngineConfig.DEFAULTS), new ChunksStored(List.of("a", "z"))));
            try (FleetNode node = FleetNode.start(store, "grouped", "n", FleetNode.Settings.of(2).withoutAudit())) {
                FleetQueries view = new FleetQueries(store, "grouped");
                await().atMost(PATIENCE).until(view::caughtUp);

                assertEquals(Map.of("hybrid", new TreeMap<>(Map.of(0, 2L, 1, 2L, 2, 1L)), "plain", new TreeMap<>(Map.of(0, 2L))),
                        view.chunksByGroup());
                assertEquals(Map.of("a", List.of("hybrid", "plain"), "b", List.of("hybrid")),
                        view.holders(0, List.of("a", "b")));
                assertEquals(Map.of("a/g1", List.of("hybrid"), "b/g1", List.of(), "c/g1", List.of("hybrid")),
                        view.holders(1, List.of("a/g1", "b/g1", "c/g1")));
                assertEquals(Map.of("a/g2", List.of()), view.holders(1, List.of("a/g2")), "a key of group 2 is not group 1's");
                assertEquals(Map.of("a/g2", List.of("hybrid")), view.holders(List.of("a/g2")), "the key alone, as before groups");
            }
        }
    }

    @Test
    void aViewMadeBeforeGroupsStillReadsWithEveryKeyInGroupZero() throws Exception {
        String url = TestPostgres.newDatabase();
        try (PostgresStore store = PostgresStore.open(url, 4)) {
            try (Connection c = store.dataSource().getConnection(); Statement s = c.createStatement()) {
                // The table exactly as a view made before groups created it, with a row in it.
                s.execute("CREATE TABLE old_tier_chunk (engine_id varchar(255) NOT NULL, chunk_key varchar(255) NOT NULL,"
                        + " PRIMARY KEY (engine_id, chunk_key))");
                s.execute("INSERT INTO old_tier_chunk VALUES ('e0', 'k1')");
            }
            FleetQueries view = new FleetQueries(store, "old");

            assertEquals(new TreeMap<>(Map.of("e0", new TreeSet<>(List.of("k1")))), view.index());
            assertEquals(Map.of("k1", List.of("e0")), view.holders(List.of("k1")));
            assertEquals(Map.of("k1", List.of("e0")), view.holders(0, List.of("k1")));
            assertEquals(Map.of("e0", new TreeMap<>(Map.of(0, 1L))), view.chunksByGroup());
        }
    }

    private static void append(PostgresStore store, String engineId, long sequenceNumber, List<EngineEvent> events) {
        store.engine().appendEvents(List.of(new GenericDomainEventMessage<>("EngineAggregate", engineId, sequenceNumber,
                new StepEvents(events))));
    }
}
