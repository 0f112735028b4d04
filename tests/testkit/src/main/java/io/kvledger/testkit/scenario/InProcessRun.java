package io.kvledger.testkit.scenario;

import io.kvledger.application.KvLedger;
import io.kvledger.application.StepBatcher;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.log.EventLogWriter;
import io.kvledger.infrastructure.scenario.MalformedLineException;
import io.kvledger.infrastructure.scenario.ScenarioLine;
import io.kvledger.infrastructure.scenario.ScenarioReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * A scenario run on the embedding API with the in-memory store, with {@code kvledger run}'s exit
 * statuses: 0, or 2 on a malformed line or a missing file, the events before it kept. As in the
 * contract, {@code EngineConfigured} is written when the first line that is not a config line is read
 * (even a malformed one), or at the end of an input that has none.
 */
final class InProcessRun implements ScenarioExecutor {

    @Override
    public int run(Path scenario, Path eventLog) throws IOException {
        try (InputStream in = Files.newInputStream(scenario);
             Writer out = Files.newBufferedWriter(eventLog, StandardCharsets.UTF_8)) {
            EventLogWriter log = new EventLogWriter(out);
            try {
                run(new ScenarioReader(in), log);
                return 0;
            } catch (MalformedLineException e) {
                return 2;
            } finally {
                log.flush();
            }
        } catch (NoSuchFileException e) {
            return 2;
        }
    }

    private static void run(ScenarioReader reader, EventLogWriter log) throws IOException, MalformedLineException {
        EngineConfig config = null;
        KvLedger ledger = null;
        StepBatcher steps = null;
        try {
            ScenarioLine line;
            while ((line = reader.next()) != null) {
                if (line instanceof ScenarioLine.Config c) {
                    config = c.config();
                    continue;
                }
                if (ledger == null) {
                    ledger = open(config, log);
                    steps = new StepBatcher(ledger, result -> log.writeAll(result.events()));
                }
                steps.add(new StepEntry(line.line(), ((ScenarioLine.Command) line).command()));
            }
            if (ledger == null) {
                ledger = open(config, log);
                steps = new StepBatcher(ledger, result -> log.writeAll(result.events()));
            }
            steps.flush();
        } catch (MalformedLineException e) {
            if (ledger == null && !e.configLine()) {
                ledger = open(config, log);
            }
            if (steps != null) {
                steps.flush();
            }
            throw e;
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            if (ledger != null) {
                ledger.close();
            }
        }
    }

    private static KvLedger open(EngineConfig config, EventLogWriter log) {
        KvLedger ledger = KvLedger.builder().config(config == null ? EngineConfig.DEFAULTS : config).build();
        log.write(ledger.configured());
        return ledger;
    }
}
