package io.kvledger.application.engine;

import io.kvledger.domain.config.EngineConfig;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** Creates an engine; its only event is {@code EngineConfigured}. */
public record ConfigureEngine(@TargetAggregateIdentifier String engineId, EngineConfig config) {
}
