package io.kvledger.infrastructure.fleet;

import io.kvledger.infrastructure.store.jdbc.PostgresStore;
import java.util.concurrent.CountDownLatch;

/** A processing node in a JVM of its own, as {@code kvledger fleet node} runs one: until it is killed. */
public final class ChildNode {

    private ChildNode() {
    }

    /** Arguments: the store's JDBC URL, the view, the node's id, the view's segments. */
    public static void main(String[] args) throws InterruptedException {
        PostgresStore store = PostgresStore.open(args[0], 6);
        FleetNode node = FleetNode.start(store, args[1], args[2], Integer.parseInt(args[3]));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            node.close();
            store.close();
            stopped.countDown();
        }));
        stopped.await();
    }
}
