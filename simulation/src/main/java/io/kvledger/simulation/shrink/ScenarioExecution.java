package io.kvledger.simulation.shrink;

import io.kvledger.application.KvLedger;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.simulation.host.ScenarioRunner;
import io.kvledger.infrastructure.scenario.MalformedLineException;
import io.kvledger.infrastructure.scenario.ScenarioLine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** Runs a scenario to its events (the first is {@code EngineConfigured}); throws when the engine fails. */
@FunctionalInterface
public interface ScenarioExecution {

    List<EngineEvent> run(Scenario scenario);

    /** The real engine, as {@code kvledger run} drives it: command {@code i} is line {@code i + 2}, after the config line. */
    static ScenarioExecution ledger() {
        return scenario -> {
            List<EngineCommand> commands = scenario.commands();
            int[] next = {-1};
            ScenarioRunner.Lines lines = () -> {
                int i = next[0]++;
                if (i < 0) {
                    return new ScenarioLine.Config(1, scenario.config());
                }
                return i < commands.size() ? new ScenarioLine.Command(i + 2, commands.get(i)) : null;
            };
            List<EngineEvent> events = new ArrayList<>();
            try {
                ScenarioRunner.inMemory().run(lines, new ScenarioRunner.Sink() {
                    @Override
                    public void opened(KvLedger ledger) {
                        events.add(ledger.configured());
                    }

                    @Override
                    public void stepped(List<EngineEvent> stepEvents) {
                        events.addAll(stepEvents);
                    }
                });
            } catch (IOException | MalformedLineException e) {
                throw new IllegalStateException("a scenario in memory has no malformed line and no input to fail", e);
            }
            return events;
        };
    }
}
