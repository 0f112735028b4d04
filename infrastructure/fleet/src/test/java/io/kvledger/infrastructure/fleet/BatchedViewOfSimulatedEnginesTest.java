package io.kvledger.infrastructure.fleet;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.store.jdbc.PostgresStore;
import io.kvledger.infrastructure.store.jdbc.TestPostgres;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Simulated engines of many seeds (and the captured foreign logs, which break rules): the view built in
 * batches of up to 100 messages over four segments equals the one built a message per batch on one
 * segment (tier index, violations, events seen), and its audit finds, per engine, what {@code audit} finds.
 */
@ExtendWith(TestPostgres.class)
class BatchedViewOfSimulatedEnginesTest {

    private static final String[] FOREIGN = {"completion_of_unknown_job", "job_completed_twice", "duplicate_store_after_readmission"};

    @Test
    void batchesOfAnySizeBuildTheSameViewAndTheSameAudit() throws Exception {
        String url = TestPostgres.newDatabase();
        try (PostgresStore store = PostgresStore.open(url, 6)) {
            Map<String, List<EngineEvent>> written = new TreeMap<>();
            for (long seed = 1; seed <= 10; seed++) {
                written.put("sim-" + seed, FleetFixtures.simulate(store, "sim-" + seed, seed, 25));
            }
            for (String log : FOREIGN) {
                written.put("foreign-" + log, FleetFixtures.importLog(store, "foreign-" + log, "/foreign-logs/" + log + ".jsonl"));
            }
            try (FleetNode batched = FleetNode.start(store, "batched", "b", FleetNode.Settings.of(4));
                 FleetNode single = FleetNode.start(store, "single", "s", FleetNode.Settings.of(1).withBatchSize(1))) {
                FleetQueries batchedView = new FleetQueries(store, "batched");
                FleetQueries singleView = new FleetQueries(store, "single");
                await().atMost(Duration.ofSeconds(180)).until(() -> batchedView.caughtUp() && singleView.caughtUp());
                assertEquals(singleView.index(), batchedView.index(), "tier index");
                assertEquals(singleView.violations(), batchedView.violations(), "audit");
                assertEquals(singleView.progress(), batchedView.progress(), "events seen");
                Map<String, Long> stored = batchedView.storedEvents();
                for (FleetQueries.EngineProgress p : batchedView.progress()) {
                    assertEquals(stored.get(p.engineId()), p.seen(), p.engineId() + ": each event once");
                    assertEquals(stored.get(p.engineId()), p.stored(), p.engineId() + ": stored");
                }
                for (var engine : written.entrySet()) {
                    assertEquals(FleetFixtures.audit(engine.getValue()), batchedView.violations().stream()
                            .filter(f -> f.engineId().equals(engine.getKey())).map(f -> f.finding().seq() + " " + f.finding().code().name())
                            .collect(Collectors.toList()), engine.getKey() + ": the batched audit finds what audit finds");
                }
                assertFalse(batchedView.index().isEmpty(), "the engines' tiers hold chunks");
                assertFalse(batchedView.violations().isEmpty(), "the foreign logs break rules");
            }
        }
    }
}
