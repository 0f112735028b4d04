package io.kvledger.infrastructure.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.EngineConflictException;
import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestRegistered;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.modelling.command.ConcurrencyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two writers of one engine, each as a separate process would be (its own pool, its own Axon, its own
 * cache), stepping at the same moment, round after round. Each round exactly one wins; the other's step
 * is refused whole (EngineConflictException, caused by Axon's ConcurrencyException) and its ledger
 * reloads. The stored log has every winner's step once, no loser's, and no gap in its sequence.
 */
@ExtendWith(TestPostgres.class)
class TwoWritersRaceTest {

    private static final int ROUNDS = 30;

    @Test
    void eachRaceHasExactlyOneConflictAndTheLogNeitherLosesNorDoubles() throws Exception {
        String url = TestPostgres.newDatabase();
        List<String> winners = new ArrayList<>();
        int conflicts = 0;
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try (PostgresStore storeA = PostgresStore.open(url, 2); PostgresStore storeB = PostgresStore.open(url, 2);
             KvLedger a = storeA.ledger("shared").build(); KvLedger b = storeB.ledger("shared").build()) {
            assertTrue(b.resumed(), "the second writer resumes the engine the first created");
            CyclicBarrier start = new CyclicBarrier(2);
            for (int round = 0; round < ROUNDS; round++) {
                String ra = "a" + round;
                String rb = "b" + round;
                Future<Throwable> fa = threads.submit(() -> step(a, ra, start));
                Future<Throwable> fb = threads.submit(() -> step(b, rb, start));
                Throwable ea = fa.get();
                Throwable eb = fb.get();
                assertTrue((ea == null) != (eb == null), "round " + round + ": exactly one writer wins: " + ea + " / " + eb);
                Throwable lost = ea != null ? ea : eb;
                EngineConflictException conflict = assertInstanceOf(EngineConflictException.class, lost);
                assertInstanceOf(ConcurrencyException.class, conflict.getCause());
                assertTrue(conflict.getMessage().contains("engine shared"), conflict.getMessage());
                conflicts++;
                winners.add(ea == null ? ra : rb);
                assertEquals(a.state().requests().keySet(), b.state().requests().keySet(),
                        "round " + round + ": the loser reloaded what the winner stored");
            }
            List<? extends DomainEventMessage<?>> stored = storeA.engine().readEvents("shared").asStream().toList();
            for (int i = 0; i < stored.size(); i++) {
                assertEquals(i, stored.get(i).getSequenceNumber(), "no gap and no duplicate in the sequence");
            }
            List<String> registered = new ArrayList<>();
            for (DomainEventMessage<?> message : stored) {
                for (EngineEvent event : ((StepEvents) message.getPayload()).events()) {
                    if (event instanceof RequestRegistered r) {
                        registered.add(r.requestId());
                    }
                }
            }
            assertEquals(winners, registered, "every winner's step once, in order; no loser's");
        } finally {
            threads.shutdownNow();
        }
        assertEquals(ROUNDS, conflicts);
    }

    private static Throwable step(KvLedger ledger, String requestId, CyclicBarrier start) throws Exception {
        start.await();
        try {
            ledger.step(List.of(new RegisterRequest(requestId, List.of(1, 2, 3))));
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }
}
