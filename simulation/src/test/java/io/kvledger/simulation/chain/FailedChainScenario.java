package io.kvledger.simulation.chain;

import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.scenario.ScenarioWriter;
import io.kvledger.simulation.shrink.Scenario;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes the commands of a failed chain as a scenario (contract section 2, with its config line), so
 * that {@code kvledger run FILE} replays it and {@code kvledger shrink} can take it further. jqwik runs
 * the chain is shrunk first, by jqwik and then by the delta-debugging shrinker.
 */
final class FailedChainScenario {

    static final Path DIRECTORY = Path.of("target", "failed-chains");

    private FailedChainScenario() {
    }

    static Path write(String name, EngineConfig config, List<EngineCommand> commands) {
        return write(name, ScenarioWriter.toText(config, commands));
    }

    static Path write(String name, Scenario scenario) {
        return write(name, scenario.text());
    }

    private static Path write(String name, String text) {
        Path file = DIRECTORY.resolve(name + ".jsonl");
        try {
            Files.createDirectories(DIRECTORY);
            Files.writeString(file, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
        return file;
    }
}
