package io.kvledger.infrastructure.cli;

import io.kvledger.application.engine.StepEntry;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.infrastructure.log.LogLineEncoder;
import io.kvledger.infrastructure.scenario.ScenarioWriter;
import io.kvledger.simulation.Checks;
import io.kvledger.infrastructure.scenario.GroupsParser;
import io.kvledger.simulation.SimulationFailure;
import io.kvledger.simulation.SimulationModel;
import io.kvledger.simulation.SimulationOptions;
import io.kvledger.simulation.SimulationSummary;
import io.kvledger.simulation.Simulator;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
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
            description = "The longest a request gets; prompt and output lengths scale with it (default 512, or the model's).")
    Integer requestTokens;

    @Option(names = "--model", paramLabel = "NAME",
            description = {"The KV cache groups of the simulated model: default (no groups, the single-group workload),",
                    "gemma3 (5 sliding groups of window 1024 : 1 full), gpt-oss (full + sliding window 128),",
                    "eagle (full + EAGLE draft group), mixed-blocks (full B32 + sliding B8 window 16); docs/simulation.md."})
    String model;

    @Option(names = "--groups", paramLabel = "JSON",
            description = "The groups as a config line's groups array (contract 7.1), instead of --model.")
    String groups;

    @Option(names = "--gpu-blocks", paramLabel = "N",
            description = "GPU blocks of the simulated host (default 0: four longest requests' worth).")
    int gpuBlocks = SimulationOptions.DEFAULTS.gpuBlockLimit();

    @Option(names = "--request-controls", paramLabel = "P",
            description = "Share of requests registered with per-request controls (maxOffloadTokens, maxLoadTokens,"
                    + " skipReadingPrefixCache; default ${DEFAULT-VALUE}: none, so a seed's log is as without them).")
    double requestControls = SimulationOptions.DEFAULTS.requestControls();

    @Option(names = "--checks", paramLabel = "WHICH",
            description = {"ALL: after every step, the host's rules, every rule of audit and the log's fold against the engine's state;",
                    "HOST: the host's rules only, for measuring the engine (default ${DEFAULT-VALUE})."})
    Checks checks = Checks.ALL;

    @Option(names = {"-o", "--output"}, paramLabel = "EVENTS", description = "Write the event log here instead of stdout.")
    Path output;

    @Option(names = "--scenario", paramLabel = "SCENARIO",
            description = "Also write the commands as a scenario; kvledger run of it gives the same log.")
    Path scenario;

    @Option(names = "--progress", description = "Report progress on stderr even when it is not a terminal.")
    boolean progress;

    @Override
    public Integer call() throws IOException {
        SimulationOptions options;
        try {
            SimulationModel simulated = simulatedModel();
            options = new SimulationOptions(requests, seed, abortRate, preemptRate, failRate, workers, release, resetRate,
                    requestTokens == null ? simulated.requestTokens() : requestTokens, gpuBlocks, simulated, requestControls);
        } catch (IllegalArgumentException e) {
            return Cli.fail(e.getMessage());
        }
        Progress shown = Progress.of(progress, Cli.stderr(), "simulate", requests, "requests");
        try (Output logOut = Output.to(output); Output scenarioOut = scenario == null ? null : Output.file(scenario)) {
            Writer commands = scenarioOut == null ? null : scenarioOut.writer();
            LogLineEncoder log = new LogLineEncoder(new BufferedOutputStream(logOut.stream(), 1 << 16));
            LogListener listener = new LogListener(log, commands, shown);
            SimulationSummary summary;
            try {
                summary = new Simulator(options).checks(checks).run(listener);
            } catch (SimulationFailure failure) {
                listener.flush();
                commit(logOut, scenarioOut); // the log up to the failed check is what reproduces it
                Cli.say("simulation failed: " + failure.getMessage());
                return Cli.EXIT_FAILURE;
            }
            listener.flush();
            commit(logOut, scenarioOut);
            listener.finish();
            if (output == null) {
                Cli.stderr().print(summary.text(seed));
            } else {
                PrintWriter summaryOut = Cli.stdoutWriter();
                summaryOut.print(summary.text(seed));
                summaryOut.flush();
            }
            return 0;
        }
    }

    private SimulationModel simulatedModel() {
        if (model != null && groups != null) {
            throw new IllegalArgumentException("--model and --groups exclude each other");
        }
        if (groups != null) {
            try {
                return SimulationModel.ofGroups(GroupsParser.parse(groups));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--groups: " + e.getMessage(), e);
            }
        }
        return model == null ? SimulationModel.DEFAULT : SimulationModel.named(model);
    }

    private static void commit(Output log, Output scenario) {
        log.commit();
        if (scenario != null) {
            scenario.commit();
        }
    }

    /** Writes the events, and the commands when asked, as they come. */
    private static final class LogListener implements Simulator.Listener {
        private final LogLineEncoder log;
        private final Writer commands;
        private final Progress progress;
        private ScenarioWriter scenario;
        private long ended;

        LogListener(LogLineEncoder log, Writer commands, Progress progress) {
            this.log = log;
            this.commands = commands;
            this.progress = progress;
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
            if (progress != null) {
                for (EngineEvent event : events) {
                    if (event instanceof RequestFinished || event instanceof RequestAborted) {
                        ended++;
                    }
                }
                progress.update(log.lastSeq(), ended, log.lastSeq());
            }
        }

        void finish() {
            if (progress != null) {
                progress.finish(log.lastSeq(), ended, log.lastSeq());
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
