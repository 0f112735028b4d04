package io.kvledger.infrastructure.fleet;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.store.jdbc.PostgresStore;
import io.kvledger.infrastructure.store.jdbc.TestPostgres;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two processing nodes, each a real child JVM, share a view's four segments while four engines write.
 * One is killed (SIGKILL) mid-stream; the other takes its segments over. The view then equals, exactly,
 * the one a single in-process node builds over the same events, and its audit equals {@code audit}'s.
 */
@ExtendWith(TestPostgres.class)
class FleetTakeoverTest {

    private static final String[] FOREIGN = {"completion_of_unknown_job", "job_completed_twice", "duplicate_store_after_readmission"};

    private static String safe(java.util.concurrent.Callable<String> c) {
        try {
            return c.call();
        } catch (Exception e) {
            return e.toString();
        }
    }

    @Test
    void aKilledNodesSegmentsAreTakenOverAndTheViewEqualsASingleNodes() throws Exception {
        String url = TestPostgres.newDatabase();
        ExecutorService writers = Executors.newFixedThreadPool(4);
        Process a = null;
        Process b = null;
        try (PostgresStore store = PostgresStore.open(url, 8)) {
            Map<String, List<EngineEvent>> written = new java.util.TreeMap<>();
            for (String log : FOREIGN) {
                written.put("foreign-" + log, FleetFixtures.importLog(store, "foreign-" + log, "/foreign-logs/" + log + ".jsonl"));
            }
            a = FleetFixtures.childNode(url, "fleet", "node-a", 4);
            b = FleetFixtures.childNode(url, "fleet", "node-b", 4);
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .conditionEvaluationListener(c -> System.out.println("BALANCE " + c.getRemainingTimeInMS() + " "
                            + safe(() -> FleetFixtures.owners(store, "fleet").toString())))
                    .until(() -> FleetFixtures.owners(store, "fleet").equals(Map.of("node-a", 2, "node-b", 2)));

            List<Future<List<EngineEvent>>> runs = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                long seed = 100 + i;
                String engine = "gpu-" + i;
                runs.add(writers.submit(() -> FleetFixtures.simulate(store, engine, seed, 60)));
            }
            FleetQueries fleet = new FleetQueries(store, "fleet");
            await().atMost(Duration.ofSeconds(120)).until(() -> fleet.progress().stream()
                    .filter(p -> p.engineId().startsWith("gpu-")).mapToLong(FleetQueries.EngineProgress::seen).sum() > 300);
            a.destroyForcibly(); // SIGKILL: no shutdown hook, its claims stay until they time out
            a.waitFor();
            for (int i = 0; i < 4; i++) {
                written.put("gpu-" + i, runs.get(i).get());
            }
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .conditionEvaluationListener(c -> System.out.println("TAKEOVER " + c.getRemainingTimeInMS() + " "
                            + safe(() -> FleetFixtures.owners(store, "fleet") + " " + fleet.progress())))
                    .until(() -> FleetFixtures.owners(store, "fleet").equals(Map.of("node-b", 4)) && fleet.caughtUp());

            try (FleetNode single = FleetNode.start(store, "single", "solo", 1)) {
                FleetQueries reference = new FleetQueries(store, "single");
                await().atMost(Duration.ofSeconds(120)).until(reference::caughtUp);
                assertEquals(reference.index(), fleet.index(), "tier index");
                assertEquals(reference.violations(), fleet.violations(), "fleet audit");
                assertEquals(reference.progress(), fleet.progress(), "events seen, each once");
            }
            assertFalse(fleet.index().isEmpty(), "the engines' tiers hold chunks");
            System.out.println("FLEET redelivered messages (skipped): " + fleet.redelivered());
            for (var engine : written.entrySet()) {
                assertEquals(FleetFixtures.audit(engine.getValue()), fleet.violations().stream()
                        .filter(f -> f.engineId().equals(engine.getKey())).map(f -> f.finding().seq() + " " + f.finding().code().name())
                        .collect(Collectors.toList()), engine.getKey() + ": the fleet audit finds what audit finds");
            }
            assertFalse(fleet.violations().isEmpty(), "the foreign logs break rules");
        } finally {
            writers.shutdownNow();
            for (Process p : new Process[] {a, b}) {
                if (p != null) {
                    p.destroy();
                    p.waitFor();
                }
            }
        }
    }
}
