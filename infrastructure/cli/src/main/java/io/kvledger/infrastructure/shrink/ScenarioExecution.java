package io.kvledger.infrastructure.shrink;

import io.kvledger.application.KvLedger;
import io.kvledger.application.StepBatcher;
import io.kvledger.infrastructure.cli.ScenarioRunner;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.event.EngineEvent;
import java.util.ArrayList;
import java.util.List;

/** Runs a scenario to its events (the first is {@code EngineConfigured}); throws when the engine fails. */
@FunctionalInterface
public interface ScenarioExecution {

    List<EngineEvent> run(Scenario scenario);

    /** The real engine, as {@code kvledger run} drives it: command {@code i} is line {@code i + 2}, after the config line. */
    static ScenarioExecution ledger() {
        return scenario -> {
            List<EngineEvent> events = new ArrayList<>();
            try (KvLedger ledger = KvLedger.builder().config(scenario.config()).build()) {
                events.add(ledger.configured());
                StepBatcher steps = new StepBatcher(ledger, ScenarioRunner.STEP_SIZE, result -> events.addAll(result.events()));
                List<EngineCommand> commands = scenario.commands();
                for (int i = 0; i < commands.size(); i++) {
                    steps.add(new StepEntry(i + 2, commands.get(i)));
                }
                steps.flush();
            }
            return events;
        };
    }
}
