package io.kvledger.tests.cli;

import java.net.URISyntaxException;
import java.nio.file.Path;

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

    static Path resource(String name) throws URISyntaxException {
        return Path.of(LogFixtures.class.getResource(name).toURI());
    }
}
