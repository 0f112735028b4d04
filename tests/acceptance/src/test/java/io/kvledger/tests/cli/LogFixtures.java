package io.kvledger.tests.cli;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Logs produced by {@code kvledger run} from the example scenarios, and corpus logs, for the log tools' tests. */
final class LogFixtures {

    private LogFixtures() {
    }

    /** The log {@code kvledger run} writes for an example scenario (asserted to exit 0). */
    static Path runExample(String name, Path dir) throws URISyntaxException {
        Path scenario = resource("/examples/" + name + ".jsonl");
        Path log = dir.resolve(name + ".events.jsonl");
        CliRun run = CliRun.of("run", scenario.toString(), "-o", log.toString());
        if (run.exit() != 0) {
            throw new IllegalStateException("kvledger run " + name + " exited " + run.exit() + ": " + run.stderr());
        }
        return log;
    }

    /** The events of a log, in order. */
    static List<EngineEvent> events(Path log) throws IOException, MalformedLogException {
        List<EngineEvent> events = new ArrayList<>();
        try (InputStream in = Files.newInputStream(log)) {
            EventLogReader reader = new EventLogReader(in);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                events.add(entry.event());
            }
        }
        return events;
    }

    static Path resource(String name) throws URISyntaxException {
        return Path.of(LogFixtures.class.getResource(name).toURI());
    }
}
