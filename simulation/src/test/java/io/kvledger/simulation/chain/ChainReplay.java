package io.kvledger.simulation.chain;

import io.kvledger.domain.command.EngineCommand;
import io.kvledger.simulation.shrink.Scenario;
import io.kvledger.simulation.shrink.ScenarioOracle;
import java.util.List;

/** Replays a scenario through a fresh model with the chain's invariants after every command: the shrinker's oracle. */
final class ChainReplay {

    private ChainReplay() {
    }

    /** Whether the scenario breaks the invariant labelled {@code label} (or throws, for {@link ChainInvariant#EXCEPTION}). */
    static ScenarioOracle breaks(String label, List<ChainInvariant> invariants) {
        return scenario -> {
            try (LedgerModel model = LedgerModel.open(scenario.config())) {
                for (EngineCommand command : commandsOf(scenario)) {
                    model.execute(command);
                    invariants.forEach(invariant -> invariant.verify(model));
                }
                return false;
            } catch (ChainInvariant.Broken broken) {
                return broken.label.equals(label);
            } catch (RuntimeException e) {
                return label.equals(ChainInvariant.EXCEPTION);
            }
        };
    }

    private static List<EngineCommand> commandsOf(Scenario scenario) {
        return scenario.commands();
    }
}
