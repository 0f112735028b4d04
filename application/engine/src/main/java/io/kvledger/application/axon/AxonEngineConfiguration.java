package io.kvledger.application.axon;

import io.kvledger.application.engine.EngineAggregate;
import java.util.function.Supplier;
import org.axonframework.config.AggregateConfigurer;
import org.axonframework.config.Configuration;
import org.axonframework.config.Configurer;
import org.axonframework.config.DefaultConfigurer;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
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
        Configurer configurer = DefaultConfigurer.defaultConfiguration(false)
                .configureSerializer(c -> serializer())
                .configureMessageSerializer(c -> serializer())
                .configureEventSerializer(c -> serializer())
                .configureEmbeddedEventStore(c -> storageEngine.get())
                .configureAggregate(AggregateConfigurer.defaultConfiguration(EngineAggregate.class)
                        .configureCache(c -> new StrongReferenceCache()));
        Configuration configuration = configurer.buildConfiguration();
        configuration.start();
        return configuration;
    }

    static JacksonSerializer serializer() {
        return JacksonSerializer.defaultSerializer();
    }
}
