package io.kvledger.infrastructure.cli;

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
import java.util.Optional;
import java.util.function.Function;

/**
 * Executes a scenario through the embedding API, the same Axon command path a host uses, writing
 * every event as it is produced. Consecutive commands go to the engine as one step, up to
 * {@link #STEP_SIZE} ({@link StepBatcher}), which costs one Axon command per step rather than per line.
 */
public final class ScenarioRunner {

    /** Commands per step when a scenario is run: one Axon command each, whatever the scenario's length. */
    public static final int STEP_SIZE = StepBatcher.DEFAULT_STEP_SIZE;

    /** What a caller learns of a run as it goes. */
    public interface Hooks {
        /** The engine is open: write the log's beginning (by default its {@code EngineConfigured}). */
        default void opened(KvLedger ledger, EventLogWriter log) {
            log.write(ledger.configured());
        }

        /** A step was executed and written. */
        default void stepped(EventLogWriter log) {
        }
    }

    private static final Hooks DEFAULT_HOOKS = new Hooks() {
    };

    private final Function<Optional<EngineConfig>, KvLedger> ledgers;
    private final Hooks hooks;

    /**
     * @param ledgers opens the engine for the scenario's config line, empty when it has none (the
     *                defaults for a new engine; a resumed one keeps its stored config)
     */
    public ScenarioRunner(Function<Optional<EngineConfig>, KvLedger> ledgers) {
        this(ledgers, DEFAULT_HOOKS);
    }

    public ScenarioRunner(Function<Optional<EngineConfig>, KvLedger> ledgers, Hooks hooks) {
        this.ledgers = ledgers;
        this.hooks = hooks;
    }

    /**
     * Runs the scenario to its end, or to its first malformed line, which is thrown after every event
     * of the lines before it has been written (and flushed).
     */
    public void run(InputStream scenario, EventLogWriter log) throws IOException, MalformedLineException {
        ScenarioReader reader = new ScenarioReader(scenario);
        Optional<EngineConfig> config = Optional.empty();
        KvLedger ledger = null;
        StepBatcher steps = null;
        try {
            ScenarioLine line;
            while ((line = reader.next()) != null) {
                if (line instanceof ScenarioLine.Config c) {
                    config = Optional.of(c.config());
                    continue;
                }
                if (ledger == null) {
                    ledger = open(config, log);
                    steps = batcher(ledger, log);
                }
                steps.add(new StepEntry(line.line(), ((ScenarioLine.Command) line).command()));
            }
            if (ledger == null) {
                ledger = open(config, log);
                steps = batcher(ledger, log);
            }
            steps.flush();
        } catch (MalformedLineException e) {
            // EngineConfigured is written once the first line that is not a config line is read, even a
            // malformed one; a malformed config line writes nothing.
            if (ledger == null && !e.configLine()) {
                ledger = open(config, log);
                steps = batcher(ledger, log);
            }
            if (steps != null) {
                steps.flush();
            }
            throw e;
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            try {
                log.flush();
            } finally {
                if (ledger != null) {
                    ledger.close();
                }
            }
        }
    }

    private KvLedger open(Optional<EngineConfig> config, EventLogWriter log) {
        KvLedger ledger = ledgers.apply(config);
        try {
            hooks.opened(ledger, log);
        } catch (RuntimeException e) {
            ledger.close();
            throw e;
        }
        return ledger;
    }

    /** Each step's events are written and flushed as soon as it is decided. */
    private StepBatcher batcher(KvLedger ledger, EventLogWriter log) {
        return new StepBatcher(ledger, STEP_SIZE, result -> {
            try {
                log.writeAll(result.events());
                log.flush();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            hooks.stepped(log);
        });
    }
}
