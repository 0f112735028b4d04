package io.kvledger.infrastructure.store.jdbc;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.store.StoreProvider;
import java.util.List;
import java.util.function.Consumer;

/** Opens {@code jdbc:postgresql:} URLs for the command line (registered in META-INF/services). */
public final class JdbcStoreProvider implements StoreProvider {

    @Override
    public boolean accepts(String url) {
        return url.startsWith("jdbc:postgresql:");
    }

    @Override
    public KvLedger.Builder ledger(String url, String engineId) {
        return PostgresStores.builder(url, engineId);
    }

    @Override
    public long readEvents(String url, String engineId, Consumer<EngineEvent> each) {
        long[] count = {0};
        try (PostgresStore store = PostgresStore.open(url, 1)) {
            // Streamed in the engine's batches: memory does not grow with the engine's log.
            store.engine().readEvents(engineId).asStream().forEach(message -> {
                Object payload = message.getPayload();
                for (EngineEvent event : payload instanceof StepEvents step ? step.events() : List.of((EngineEvent) payload)) {
                    each.accept(event);
                    count[0]++;
                }
            });
        }
        return count[0];
    }
}
