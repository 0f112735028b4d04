package io.kvledger.application.axon;

import io.kvledger.application.engine.EngineAggregate;
import java.util.function.Supplier;
import org.axonframework.common.transaction.NoTransactionManager;
import org.axonframework.common.transaction.TransactionManager;
import org.axonframework.config.AggregateConfigurer;
import org.axonframework.config.Configuration;
import org.axonframework.config.Configurer;
import org.axonframework.config.DefaultConfigurer;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.serialization.Serializer;
import org.axonframework.serialization.json.JacksonSerializer;

/**
 * Axon without Spring and without Axon Server: {@code defaultConfiguration(false)} skips every
 * ServiceLoader module (the Axon Server connector and the update checker among them), and Jackson
 * fills every serializer slot so that XStream is never used.
 */
public final class AxonEngineConfiguration {

    private AxonEngineConfiguration() {
    }

    public static Configuration start(Supplier<EventStorageEngine> storageEngine) {
        return start(storageEngine, serializer(), NoTransactionManager.INSTANCE);
    }

    /**
     * With {@code serializer} in every slot: a store that serializes events (JDBC) needs one that reads
     * back what it writes, which Jackson's default (no type names inside a step's list) does not. Each
     * command (one step) runs in one transaction of {@code transactions}: its load and its append.
     */
    public static Configuration start(Supplier<EventStorageEngine> storageEngine, Serializer serializer,
                                      TransactionManager transactions) {
        Configurer configurer = DefaultConfigurer.defaultConfiguration(false)
                .configureTransactionManager(c -> transactions)
                .configureSerializer(c -> serializer)
                .configureMessageSerializer(c -> serializer)
                .configureEventSerializer(c -> serializer)
                .configureEmbeddedEventStore(c -> storageEngine.get())
                .configureAggregate(AggregateConfigurer.defaultConfiguration(EngineAggregate.class)
                        .configureCache(c -> new StrongReferenceCache())
                        .configureCommandTargetResolver(c -> new EngineTargets()));
        Configuration configuration = configurer.buildConfiguration();
        configuration.start();
        return configuration;
    }

    public static JacksonSerializer serializer() {
        return JacksonSerializer.defaultSerializer();
    }
}
