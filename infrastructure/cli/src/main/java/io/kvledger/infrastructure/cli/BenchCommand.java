package io.kvledger.infrastructure.cli;

import io.kvledger.application.audit.Auditor;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.application.replay.LogFold;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import io.kvledger.infrastructure.log.RawParse;
import io.kvledger.simulation.Checks;
import io.kvledger.simulation.SimulationOptions;
import io.kvledger.simulation.SimulationSummary;
import io.kvledger.simulation.Simulator;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Measures, in one process on one file, what the log tools cost beside a raw parse of their input:
 * a Jackson streaming parse of every token (numbers decoded, strings made), the reader alone (every line
 * read and checked into its event), {@code audit} and {@code replay} as the commands run them (the same
 * scan, parsing ahead on a second thread), and a simulation. Ratios taken in one run hold on a loaded machine where absolute
 * figures do not.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Times a raw Jackson parse, the reader, audit and replay of LOG, and a simulation, in one process.",
                "Prints each time, events per second and the ratio to the parse."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:measured", "2:malformed input or a missing file"})
final class BenchCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "LOG", description = "Event log, JSON Lines (contract section 3).")
    Path file;

    @Option(names = "--rounds", paramLabel = "K", description = "Rounds of parse, audit and replay; the last is reported (default ${DEFAULT-VALUE}).")
    int rounds = 2;

    @Option(names = "--simulate", paramLabel = "N", description = "Requests to simulate (seed 1); 0 skips it (default ${DEFAULT-VALUE}).")
    int simulate = 2000;

    @Override
    public Integer call() throws IOException {
        if (Files.isDirectory(file)) {
            return Cli.fail("cannot read " + file + ": it is a directory, not a log file");
        }
        PrintWriter out = Cli.stdoutWriter();
        try {
            long bytes = Files.size(file);
            double[] parse = new double[2];
            double[] read = new double[2];
            double[] audit = new double[2];
            double[] replay = new double[2];
            long events = 0;
            long tokens = 0;
            for (int round = 1; round <= Math.max(1, rounds); round++) {
                Clock clock = new Clock();
                tokens = RawParse.tokens(file);
                parse = clock.lap();
                events = read(file);
                read = clock.lap();
                audit(file);
                audit = clock.lap();
                replay(file);
                replay = clock.lap();
                out.printf(Locale.ROOT, "round %d: parse %.3f s, read %.3f s, audit %.3f s, replay %.3f s"
                                + " (wall; process CPU %.3f, %.3f, %.3f, %.3f)%n",
                        round, parse[0], read[0], audit[0], replay[0], parse[1], read[1], audit[1], replay[1]);
                out.flush();
            }
            out.printf(Locale.ROOT, "file %s: %d events, %d bytes, %d tokens; last round (audit and replay %s):%n", file,
                    events, bytes, tokens, LogScan.parseAheadByDefault() ? "parse ahead on a second thread" : "on one thread");
            out.printf(Locale.ROOT, "%-8s %10s %18s %15s %s%n", "", "wall", "events/s (wall)", "process CPU",
                    "ratio to parse: wall (process CPU)");
            row(out, "parse", parse, events, parse);
            row(out, "read", read, events, parse);
            row(out, "audit", audit, events, parse);
            row(out, "replay", replay, events, parse);
            if (simulate > 0) {
                // a quarter of the run first, unreported, so the one-thread row is not the one that warms the JIT
                new Simulator(SimulationOptions.DEFAULTS.withRequests(Math.max(1, simulate / 4))).run(new Discard());
                simulate(out, Checks.ALL, false, "every step checked, on one thread as before");
                simulate(out, Checks.ALL, true, "every step checked");
                simulate(out, Checks.HOST, true, "host checks only: the engine's floor");
            }
            return 0;
        } catch (NoSuchFileException e) {
            return Cli.fail("cannot read " + e.getFile() + ": no such file");
        } catch (MalformedLogException e) {
            return Cli.fail(file + ": " + e.getMessage());
        } finally {
            out.flush();
        }
    }

    /** With the parse on a second thread, wall time is the figure of a run; process CPU counts every thread. */
    private static void row(PrintWriter out, String name, double[] seconds, long events, double[] parse) {
        out.printf(Locale.ROOT, "%-8s %8.3f s %11.0f events/s %11.3f s   %5.2fx parse (CPU %.2fx)%n", name,
                seconds[0], events / seconds[0], seconds[1], seconds[0] / parse[0], seconds[1] / parse[1]);
    }

    /**
     * Wall time and the process's CPU time (every thread: the parse-ahead thread, the collector and the
     * compiler too) between laps. On a machine shared with other work wall time counts the waits for a core.
     */
    private static final class Clock {
        private final com.sun.management.OperatingSystemMXBean system =
                (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        private long wall = System.nanoTime();
        private long cpu = system.getProcessCpuTime();

        double[] lap() {
            long nowWall = System.nanoTime();
            long nowCpu = system.getProcessCpuTime();
            double[] lap = {(nowWall - wall) / 1e9, (nowCpu - cpu) / 1e9};
            wall = nowWall;
            cpu = nowCpu;
            return lap;
        }
    }

    /** The reader alone, on this thread: every line read and checked into its event, nothing folded. */
    private static long read(Path file) throws IOException, MalformedLogException {
        long events = 0;
        try (InputStream in = Files.newInputStream(file)) {
            EventLogReader reader = new EventLogReader(in);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                events++;
            }
        }
        return events;
    }

    /** As {@code audit} reads: through the log tools' scan (parsing ahead where they do, hashing prompts there as it does). */
    private static void audit(Path file) throws IOException, MalformedLogException {
        try (LogScan scan = LogScan.open(file, "bench", LogScan.Preparation.HASH_PROMPTS, false, LogScan.parseAheadByDefault())) {
            Auditor auditor = new Auditor(scan.base(), null);
            for (LogEntry entry = scan.next(); entry != null; entry = scan.next()) {
                auditor.check(entry.seq(), entry.event());
            }
            auditor.finish();
        }
    }

    private static void replay(Path file) throws IOException, MalformedLogException {
        try (LogScan scan = LogScan.open(file, "bench", LogScan.Preparation.NONE, false)) {
            LogFold fold = new LogFold(scan.base());
            for (LogEntry entry = scan.next(); entry != null; entry = scan.next()) {
                fold.fold(entry.seq(), entry.event());
            }
        }
    }

    /**
     * A simulation of {@code --simulate} requests (seed 1, no log written): wall time; the CPU time of this
     * thread (which checks, when pipelined) and of the stepping thread (the engine's steps and the host's
     * work), the busier of which bounds the wall time on an idle machine; and of the whole process (the
     * JIT and the collector too).
     */
    private void simulate(PrintWriter out, Checks checks, boolean pipelined, String what) {
        java.lang.management.OperatingSystemMXBean os = java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        LongSupplier processCpu = os instanceof com.sun.management.OperatingSystemMXBean process
                ? process::getProcessCpuTime : () -> 0L;
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long wall = System.nanoTime();
        long thread = threads.getCurrentThreadCpuTime();
        long cpu = processCpu.getAsLong();
        SimulationSummary summary = new Simulator(SimulationOptions.DEFAULTS.withRequests(simulate)).checks(checks)
                .pipelined(pipelined).timed(true).run(new Discard());
        double[] lap = {seconds(wall), (threads.getCurrentThreadCpuTime() - thread) / 1e9};
        double process = (processCpu.getAsLong() - cpu) / 1e9;
        double stepping = pipelined ? summary.steppingCpuSeconds() : 0;
        double checking = lap[1] - (pipelined ? 0 : summary.steppingCpuSeconds());
        double busiest = pipelined ? Math.max(lap[1], stepping) : lap[1];
        out.printf(Locale.ROOT, "simulate %-4s %-4s %8.3f s  %10.0f events/s  busiest thread %.3f s CPU (%.0f events per CPU second); "
                        + "process %.3f s CPU (%d requests, %d events, %s)%n", checks.name().toLowerCase(Locale.ROOT),
                pipelined ? "2thr" : "1thr", lap[0], summary.events() / lap[0], busiest, summary.events() / busiest, process,
                simulate, summary.events(), what);
        out.printf(Locale.ROOT, "  engine steps %.3f s CPU (%.0f events per CPU second), host %.3f s, checks and the rest %.3f s%n",
                summary.engineCpuSeconds(), summary.events() / Math.max(summary.engineCpuSeconds(), 1e-9),
                summary.steppingCpuSeconds() - summary.engineCpuSeconds(), checking);
        out.flush();
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    private static final class Discard implements Simulator.Listener {
        @Override
        public void configured(EngineConfigured configured) {
        }

        @Override
        public void step(List<StepEntry> entries, List<EngineEvent> events) {
        }
    }
}
