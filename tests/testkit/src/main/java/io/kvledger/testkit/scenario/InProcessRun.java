package io.kvledger.testkit.scenario;

import io.kvledger.simulation.host.ScenarioRunner;
import io.kvledger.infrastructure.log.EventLogWriter;
import io.kvledger.infrastructure.scenario.MalformedLineException;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A scenario run on the embedding API with the in-memory store ({@link ScenarioRunner}, the loop
 * {@code kvledger run} uses), with {@code kvledger run}'s exit statuses: 0, or 2 on a malformed line
 * or a missing file, the events before it kept.
 */
final class InProcessRun implements ScenarioExecutor {

    @Override
    public int run(Path scenario, Path eventLog) throws IOException {
        try (InputStream in = Files.newInputStream(scenario);
             Writer out = Files.newBufferedWriter(eventLog, StandardCharsets.UTF_8)) {
            try {
                ScenarioRunner.inMemory().run(in, new EventLogWriter(out));
                return 0;
            } catch (MalformedLineException e) {
                return 2;
            }
        } catch (NoSuchFileException e) {
            return 2;
        }
    }
}
