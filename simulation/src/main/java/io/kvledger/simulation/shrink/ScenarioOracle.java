package io.kvledger.simulation.shrink;

/** Whether a scenario still shows what is being shrunk for. Must be deterministic. */
@FunctionalInterface
public interface ScenarioOracle {

    boolean shows(Scenario scenario);
}
