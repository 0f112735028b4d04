package io.kvledger.infrastructure.fleet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.infrastructure.store.jdbc.PostgresStore;
import io.kvledger.infrastructure.store.jdbc.TestPostgres;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Nodes of one view started at the same moment on an empty database (a fleet brought up by one deploy)
 * each create the view's tables and Axon's token table if they are missing. PostgreSQL's
 * {@code CREATE TABLE IF NOT EXISTS} is not safe against a concurrent create of the same table (it fails
 * on {@code pg_type}'s unique index), so a node that lost that race died at start-up and the other one
 * kept every segment.
 */
@ExtendWith(TestPostgres.class)
class ConcurrentNodeStartTest {

    private static final int NODES = 6;

    @RepeatedTest(3)
    void nodesStartedAtOnceOnAnEmptyDatabaseAllStart() throws Exception {
        String url = TestPostgres.newDatabase();
        ExecutorService starters = Executors.newFixedThreadPool(NODES);
        CyclicBarrier together = new CyclicBarrier(NODES);
        List<PostgresStore> stores = new ArrayList<>();
        List<Future<FleetNode>> nodes = new ArrayList<>();
        List<FleetNode> started = new ArrayList<>();
        try {
            for (int i = 0; i < NODES; i++) {
                PostgresStore store = PostgresStore.open(url, 2);
                stores.add(store);
                String nodeId = "node-" + i;
                nodes.add(starters.submit(() -> {
                    together.await();
                    return FleetNode.start(store, "together", nodeId, NODES);
                }));
            }
            for (Future<FleetNode> node : nodes) {
                started.add(node.get()); // throws the start-up failure of a node that lost a race
            }
            assertEquals(NODES, started.size());
        } finally {
            starters.shutdownNow();
            for (FleetNode node : started) {
                node.close();
            }
            for (PostgresStore store : stores) {
                store.close();
            }
        }
    }
}
