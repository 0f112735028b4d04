package io.kvledger.simulation.host;

import io.kvledger.application.KvLedger;
import io.kvledger.application.StepBatcher;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.log.EventLogWriter;
import io.kvledger.infrastructure.scenario.MalformedLineException;
import io.kvledger.infrastructure.scenario.ScenarioLine;
import io.kvledger.infrastructure.scenario.ScenarioReader;
import io.kvledger.infrastructure.scenario.UnknownField;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Executes a scenario through the embedding API, the same Axon command path a host uses, handing on
 * every event as it is produced. Consecutive commands go to the engine as one step, up to
 * {@link #STEP_SIZE} ({@link StepBatcher}), which costs one Axon command per step rather than per line.
 * As in the contract, the engine is opened (and {@code EngineConfigured} written) when the first line
 * that is not a config line is read, even a malformed one, or at the end of an input that has none.
 */
public final class ScenarioRunner {

    /** Commands per step when a scenario is run: one Axon command each, whatever the scenario's length. */
    public static final int STEP_SIZE = StepBatcher.DEFAULT_STEP_SIZE;

    /** The scenario's lines in order; {@code null} at the end. */
    @FunctionalInterface
    public interface Lines {
        ScenarioLine next() throws IOException, MalformedLineException;

        /** Where the commands' config comes from when there is no config line: the engine's, opened at the first command line. */
        default void whenNoConfigLine(Supplier<EngineConfig> engineConfig) {
        }
    }

    /** Where a run's events go, in order. */
    public interface Sink {
        /** The engine is open: take the log's beginning (its {@code EngineConfigured}, or a resumed store's events). */
        void opened(KvLedger ledger) throws IOException;

        /** One step's events, as soon as the step is decided. */
        void stepped(List<EngineEvent> events) throws IOException;

        /** The run ends, at the end of the scenario or at its first malformed line. */
        default void flush() throws IOException {
        }
    }

    /** What a caller of {@link #run(InputStream, EventLogWriter)} learns of a run as it goes. */
    public interface Hooks {
        /** The engine is open: write the log's beginning (by default its {@code EngineConfigured}). */
        default void opened(KvLedger ledger, EventLogWriter log) {
            log.write(ledger.configured());
        }

        /** A step was executed and written. */
        default void stepped(EventLogWriter log) {
        }

        /** A command line gives a field its command does not know (ignored); said once per field name. */
        default void unknownField(UnknownField field) {
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

    /** The in-memory engine, with the scenario's config or the defaults. */
    public static ScenarioRunner inMemory() {
        return new ScenarioRunner(config -> KvLedger.builder().config(config.orElse(EngineConfig.DEFAULTS)).build());
    }

    /**
     * Runs the scenario to its end, or to its first malformed line, which is thrown after every event
     * of the lines before it has been written (and flushed). Each step's events are written and
     * flushed as soon as it is decided.
     */
    public void run(InputStream scenario, EventLogWriter log) throws IOException, MalformedLineException {
        ScenarioReader reader = new ScenarioReader(scenario);
        reader.onUnknownField(hooks::unknownField);
        Lines lines = new Lines() {
            @Override
            public ScenarioLine next() throws IOException, MalformedLineException {
                return reader.next();
            }

            @Override
            public void whenNoConfigLine(Supplier<EngineConfig> engineConfig) {
                reader.whenNoConfigLine(engineConfig);
            }
        };
        run(lines, new Sink() {
            @Override
            public void opened(KvLedger ledger) {
                hooks.opened(ledger, log);
            }

            @Override
            public void stepped(List<EngineEvent> events) throws IOException {
                log.writeAll(events);
                log.flush();
                hooks.stepped(log);
            }

            @Override
            public void flush() throws IOException {
                log.flush();
            }
        });
    }

    /** Runs the lines to their end, or to the first malformed one, which is thrown after the events before it reached the sink. */
    public void run(Lines lines, Sink sink) throws IOException, MalformedLineException {
        Engine engine = new Engine(sink);
        // Without a config line the engine (a resumed store's, or the defaults) is opened before the first
        // command is read, so its groups decide how the commands read.
        lines.whenNoConfigLine(() -> engine.open().configured().config());
        try {
            ScenarioLine line;
            while ((line = lines.next()) != null) {
                if (line instanceof ScenarioLine.Config c) {
                    engine.config = Optional.of(c.config());
                    continue;
                }
                engine.open();
                engine.steps.add(new StepEntry(line.line(), ((ScenarioLine.Command) line).command()));
            }
            engine.open();
            engine.steps.flush();
        } catch (MalformedLineException e) {
            // EngineConfigured is written once the first line that is not a config line is read, even a
            // malformed one; a malformed config line writes nothing.
            if (engine.ledger == null && !e.configLine()) {
                engine.open();
            }
            if (engine.steps != null) {
                engine.steps.flush();
            }
            throw e;
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            try {
                sink.flush();
            } finally {
                if (engine.ledger != null) {
                    engine.ledger.close();
                }
            }
        }
    }

    /** The engine of one run, opened once, with its config line's config (or none). */
    private final class Engine {
        private final Sink sink;
        private Optional<EngineConfig> config = Optional.empty();
        private KvLedger ledger;
        private StepBatcher steps;

        Engine(Sink sink) {
            this.sink = sink;
        }

        KvLedger open() {
            if (ledger == null) {
                try {
                    ledger = ScenarioRunner.this.open(config, sink);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                steps = batcher(ledger, sink);
            }
            return ledger;
        }
    }

    private KvLedger open(Optional<EngineConfig> config, Sink sink) throws IOException {
        KvLedger ledger = ledgers.apply(config);
        try {
            sink.opened(ledger);
        } catch (RuntimeException | IOException e) {
            ledger.close();
            throw e;
        }
        return ledger;
    }

    private static StepBatcher batcher(KvLedger ledger, Sink sink) {
        return new StepBatcher(ledger, STEP_SIZE, result -> {
            try {
                sink.stepped(result.events());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
