package io.kvledger.infrastructure.scenario;

import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;

/** A non-blank line of a scenario, with its physical line number (from 1). */
public sealed interface ScenarioLine {

    long line();

    record Config(long line, EngineConfig config) implements ScenarioLine {
    }

    record Command(long line, EngineCommand command) implements ScenarioLine {
    }
}
