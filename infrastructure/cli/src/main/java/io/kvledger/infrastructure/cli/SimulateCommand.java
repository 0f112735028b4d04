package io.kvledger.infrastructure.cli;

import io.kvledger.application.engine.StepEntry;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.log.EventLogWriter;
import io.kvledger.infrastructure.scenario.ScenarioWriter;
import io.kvledger.infrastructure.simulation.SimulationFailure;
import io.kvledger.infrastructure.simulation.SimulationOptions;
import io.kvledger.infrastructure.simulation.SimulationSummary;
import io.kvledger.infrastructure.simulation.Simulator;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "simulate", mixinStandardHelpOptions = true,
        description = {"Drives the engine with a seeded random workload and checks it after every step.",
                "The same seed gives the same log. The summary goes to stdout with -o, to stderr without."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:every check held", "1:a check failed (the message names the seed and step)",
                "2:bad options"})
final class SimulateCommand implements Callable<Integer> {

    @Option(names = "--requests", paramLabel = "N", description = "Requests to simulate (default ${DEFAULT-VALUE}).")
    int requests = SimulationOptions.DEFAULTS.requests();

    @Option(names = "--seed", paramLabel = "S", description = "Seed of the workload and geometry (default ${DEFAULT-VALUE}).")
    long seed = SimulationOptions.DEFAULTS.seed();

    @Option(names = "--abort-rate", paramLabel = "P", description = "Share of requests aborted at a random moment (default ${DEFAULT-VALUE}).")
    double abortRate = SimulationOptions.DEFAULTS.abortRate();

    @Option(names = "--preempt-rate", paramLabel = "P", description = "Chance per step of preempting a running request (default ${DEFAULT-VALUE}).")
    double preemptRate = SimulationOptions.DEFAULTS.preemptRate();

    @Option(names = "--fail-rate", paramLabel = "P", description = "Chance that a worker's completion reports failure (default ${DEFAULT-VALUE}).")
    double failRate = SimulationOptions.DEFAULTS.failRate();

    @Option(names = "--reset-rate", paramLabel = "P", description = "Chance per step of a ResetCache (default ${DEFAULT-VALUE}).")
    double resetRate = SimulationOptions.DEFAULTS.resetRate();

    @Option(names = "--workers", paramLabel = "W", description = "Worker ranks: completions per job (default ${DEFAULT-VALUE}).")
    int workers = SimulationOptions.DEFAULTS.workers();

    @Option(names = "--release", paramLabel = "POLICY", description = "FENCE or DELAY_FREE (default ${DEFAULT-VALUE}).")
    ReleasePolicy release = SimulationOptions.DEFAULTS.releasePolicy();

    @Option(names = "--request-tokens", paramLabel = "T",
            description = "The longest a request gets; prompt and output lengths scale with it (default ${DEFAULT-VALUE}).")
    int requestTokens = SimulationOptions.DEFAULTS.requestTokens();

    @Option(names = "--gpu-blocks", paramLabel = "N",
            description = "GPU blocks of the simulated host (default 0: four longest requests' worth).")
    int gpuBlocks = SimulationOptions.DEFAULTS.gpuBlockLimit();

    @Option(names = {"-o", "--output"}, paramLabel = "EVENTS", description = "Write the event log here instead of stdout.")
    Path output;

    @Option(names = "--scenario", paramLabel = "SCENARIO",
            description = "Also write the commands as a scenario; kvledger run of it gives the same log.")
    Path scenario;

    @Override
    public Integer call() throws IOException {
        SimulationOptions options;
        try {
            options = new SimulationOptions(requests, seed, abortRate, preemptRate, failRate, workers, release, resetRate,
                    requestTokens, gpuBlocks);
        } catch (IllegalArgumentException e) {
            return Cli.fail(e.getMessage());
        }
        PrintStream summaryOut = output == null ? Cli.stderr() : new PrintStream(Cli.stdout(), true, StandardCharsets.UTF_8);
        try (Writer log = open(output); Writer commands = scenario == null ? null : Files.newBufferedWriter(scenario)) {
            LogListener listener = new LogListener(new EventLogWriter(log), commands);
            SimulationSummary summary;
            try {
                summary = new Simulator(options).run(listener);
            } catch (SimulationFailure failure) {
                listener.flush();
                Cli.stderr().println("kvledger: simulation failed: " + failure.getMessage());
                return Cli.EXIT_FAILURE;
            }
            listener.flush();
            summaryOut.print(summary.text(seed));
            return 0;
        }
    }

    private static Writer open(Path output) throws IOException {
        if (output == null) {
            return new java.io.BufferedWriter(new OutputStreamWriter(Cli.stdout(), StandardCharsets.UTF_8)) {
                @Override
                public void close() throws IOException {
                    flush(); // stdout stays open for whoever runs us
                }
            };
        }
        return Files.newBufferedWriter(output, StandardCharsets.UTF_8);
    }

    /** Writes the events, and the commands when asked, as they come. */
    private static final class LogListener implements Simulator.Listener {
        private final EventLogWriter log;
        private final Writer commands;
        private ScenarioWriter scenario;

        LogListener(EventLogWriter log, Writer commands) {
            this.log = log;
            this.commands = commands;
        }

        @Override
        public void configured(EngineConfigured configured) {
            log.write(configured);
            if (commands != null) {
                scenario = new ScenarioWriter(commands, configured.config());
            }
        }

        @Override
        public void step(List<StepEntry> entries, List<EngineEvent> events) {
            log.writeAll(events);
            if (scenario != null) {
                entries.forEach(entry -> scenario.write(entry.command()));
            }
        }

        void flush() throws IOException {
            log.flush();
            if (scenario != null) {
                scenario.flush();
            }
        }
    }
}
