package io.kvledger.testkit.scenario;

import java.nio.file.Path;

/**
 * Runs one scenario file as {@code kvledger run SCENARIO -o LOG} would: writes its event log and
 * returns the exit status. {@link ScenarioFolder#IN_PROCESS} runs it on the embedding API; a project
 * may plug in its own command line or a host of its own.
 */
@FunctionalInterface
public interface ScenarioExecutor {

    int run(Path scenario, Path eventLog) throws Exception;
}
