package io.kvledger.simulation.shrink;

import io.kvledger.domain.EngineFold;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.decision.Decider;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/** Runs a scenario through a decide function (a test's variant of the rules) instead of the engine. */
final class DecisionExecution {

    private DecisionExecution() {
    }

    static ScenarioExecution of(BiFunction<EngineState, EngineCommand, Decision> decide) {
        return scenario -> {
            List<EngineEvent> events = new ArrayList<>();
            EngineEvent configured = Decider.configure(scenario.config());
            events.add(configured);
            EngineState state = EngineFold.evolve(null, configured);
            List<EngineCommand> commands = scenario.commands();
            for (int i = 0; i < commands.size(); i++) {
                Decision decision = decide.apply(state, commands.get(i));
                List<EngineEvent> decided = decision.events(i + 2, commands.get(i));
                events.addAll(decided);
                for (EngineEvent event : decided) {
                    state = EngineFold.evolve(state, event);
                }
            }
            return events;
        };
    }
}
