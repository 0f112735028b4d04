package io.kvledger.infrastructure.fleet;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.store.jdbc.PostgresStore;
import io.kvledger.infrastructure.store.jdbc.TestPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * PostgreSQL hands out global indexes when rows are inserted, not when they commit: a transaction held
 * open leaves a hole that later, committed writers' events pass. The processors must read past it and
 * still see the slow event once it commits (Axon's GapAwareTrackingToken keeps the hole open), and see
 * every event exactly once.
 */
@ExtendWith(TestPostgres.class)
class SlowTransactionGapTest {

    @Test
    void anEventCommittedLateBehindLaterOnesIsSeenOnceAndNothingIsSeenTwice() throws Exception {
        String url = TestPostgres.newDatabase();
        ExecutorService slowWriter = Executors.newSingleThreadExecutor();
        try (PostgresStore store = PostgresStore.open(url, 8); PostgresStore nodeStore = PostgresStore.open(url, 6);
             FleetNode node = FleetNode.start(nodeStore, "gaps", "only", 2)) {
            FleetQueries view = new FleetQueries(store, "gaps");
            CountDownLatch inserted = new CountDownLatch(1);
            CountDownLatch commit = new CountDownLatch(1);
            Future<?> slow = slowWriter.submit(() -> store.transactions().executeInTransaction(() -> {
                append(store, "slow", 0, configured(), new ChunksStored(List.of("slow-k")));
                inserted.countDown();
                awaitLatch(commit);
            }));
            inserted.await();
            for (int round = 0; round < 5; round++) {
                for (int engine = 0; engine < 4; engine++) {
                    String id = "fast-" + engine;
                    append(store, id, round, round == 0 ? configured() : new ChunksStored(List.of(id + "-k" + round)));
                }
            }
            await().atMost(Duration.ofSeconds(120)).until(view::caughtUp); // every committed event: the slow one is not
            assertEquals(Set.of("fast-0", "fast-1", "fast-2", "fast-3"), view.index().keySet(), "past the hole");
            assertTrue(hasHole(store), "the slow transaction's index lies below committed ones");

            commit.countDown();
            slow.get();
            await().atMost(Duration.ofSeconds(120)).until(() -> view.index().containsKey("slow"));
            await().atMost(Duration.ofSeconds(120)).until(view::caughtUp);
            assertEquals(new TreeSet<>(List.of("slow-k")), view.index().get("slow"));
            Map<String, Long> stored = view.storedEvents();
            for (FleetQueries.EngineProgress p : view.progress()) {
                assertEquals(stored.get(p.engineId()), p.seen(), p.engineId() + ": every event seen exactly once");
                assertEquals(stored.get(p.engineId()), p.stored(), p.engineId() + ": stored");
            }
            assertEquals(5, view.progress().size());
        } finally {
            slowWriter.shutdownNow();
        }
    }

    private static boolean hasHole(PostgresStore store) throws Exception {
        try (Connection c = store.dataSource().getConnection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT min(globalindex) FROM domainevententry")) {
            r.next();
            return r.getLong(1) > 1;
        }
    }

    private static EngineEvent configured() {
        return EngineConfigured.of(EngineConfig.DEFAULTS);
    }

    private static void append(PostgresStore store, String engineId, long sequenceNumber, EngineEvent... events) {
        List<GenericDomainEventMessage<EngineEvent>> messages = new java.util.ArrayList<>();
        for (EngineEvent event : events) {
            messages.add(new GenericDomainEventMessage<>("EngineAggregate", engineId, sequenceNumber + messages.size(), event));
        }
        store.engine().appendEvents(messages);
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
