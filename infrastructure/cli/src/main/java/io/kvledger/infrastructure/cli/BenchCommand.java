package io.kvledger.infrastructure.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.kvledger.application.audit.Auditor;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.application.replay.LogFold;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import io.kvledger.infrastructure.simulation.SimulationOptions;
import io.kvledger.infrastructure.simulation.SimulationSummary;
import io.kvledger.infrastructure.simulation.Simulator;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Measures, in one process on one file, what the log tools cost beside a raw parse of their input:
 * a Jackson streaming parse of every token (numbers decoded, strings made), the audit's and replay's
 * read-and-fold, and a simulation. Ratios taken in one run hold on a loaded machine where absolute
 * figures do not.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = {"Times a raw Jackson parse, audit and replay of LOG in one process, and a simulation;",
                "prints each time, events per second and the ratio to the parse."},
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
        PrintWriter out = Cli.stdoutWriter();
        try {
            long bytes = Files.size(file);
            double parse = 0;
            double audit = 0;
            double replay = 0;
            long events = 0;
            for (int round = 1; round <= Math.max(1, rounds); round++) {
                long start = System.nanoTime();
                long tokens = parse(file);
                parse = seconds(start);
                start = System.nanoTime();
                events = audit(file);
                audit = seconds(start);
                start = System.nanoTime();
                replay(file);
                replay = seconds(start);
                out.printf(Locale.ROOT, "round %d: parse %.3f s (%d tokens), audit %.3f s, replay %.3f s%n",
                        round, parse, tokens, audit, replay);
                out.flush();
            }
            out.printf(Locale.ROOT, "file %s: %d events, %d bytes%n", file, events, bytes);
            row(out, "parse", parse, events, parse);
            row(out, "audit", audit, events, parse);
            row(out, "replay", replay, events, parse);
            if (simulate > 0) {
                long start = System.nanoTime();
                SimulationSummary summary = new Simulator(SimulationOptions.DEFAULTS.withRequests(simulate)).run(new Discard());
                double seconds = seconds(start);
                out.printf(Locale.ROOT, "simulate %-8s %8.3f s  %10.0f events/s  (%d requests, %d events, every step checked)%n",
                        "", seconds, summary.events() / seconds, simulate, summary.events());
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

    private static void row(PrintWriter out, String name, double seconds, long events, double parse) {
        out.printf(Locale.ROOT, "%-17s %8.3f s  %10.0f events/s  %5.2fx parse%n", name, seconds, events / seconds,
                seconds / parse);
    }

    /** Every token read, numbers decoded and strings made: the least any reader of the file must do. */
    static long parse(Path file) throws IOException {
        long tokens = 0;
        long sink = 0;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16);
             JsonParser parser = new JsonFactory().createParser(in)) {
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken()) {
                tokens++;
                switch (token) {
                    case FIELD_NAME -> sink += parser.currentName().length();
                    case VALUE_STRING -> sink += parser.getText().length();
                    case VALUE_NUMBER_INT -> sink += parser.getNumberValue().longValue();
                    case VALUE_NUMBER_FLOAT -> sink += (long) parser.getDoubleValue();
                    default -> sink++;
                }
            }
        }
        return sink == Long.MIN_VALUE ? -tokens : tokens;
    }

    private static long audit(Path file) throws IOException, MalformedLogException {
        Auditor auditor = new Auditor();
        long events = 0;
        try (InputStream in = Files.newInputStream(file)) {
            EventLogReader reader = new EventLogReader(in);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                auditor.check(entry.seq(), entry.event());
                events++;
            }
        }
        return events;
    }

    private static void replay(Path file) throws IOException, MalformedLogException {
        LogFold fold = new LogFold();
        try (InputStream in = Files.newInputStream(file)) {
            EventLogReader reader = new EventLogReader(in);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                fold.apply(entry.seq(), entry.event());
            }
        }
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
