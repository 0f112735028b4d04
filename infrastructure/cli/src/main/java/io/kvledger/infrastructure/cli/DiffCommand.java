package io.kvledger.infrastructure.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(name = "diff", mixinStandardHelpOptions = true,
        description = {"Shows the first place where two logs of the same commands disagree: kvledger's run of a"
                + " captured scenario against the engine's captured decisions (kvledger_capture), or any two logs.",
                "Each log is cut into units: a fact (a command's own event, or its rejection) and the decisions after"
                        + " it (jobs, flushes, releases, stores, evictions, deferrals), compared regardless of their"
                        + " order inside the unit; keys are compared by the request chunk they first name."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the logs agree", "1:they disagree (the first difference is printed)",
                "2:malformed input or a missing file"})
final class DiffCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "LOG", description = "The first log, e.g. `kvledger run`'s of the captured scenario.")
    Path left;

    @Parameters(index = "1", paramLabel = "CAPTURED", description = "The second log, e.g. the engine's captured decisions.")
    Path right;

    @Override
    public Integer call() throws IOException {
        List<LogDiff.Unit> a;
        List<LogDiff.Unit> b;
        try {
            a = units(left);
            b = units(right);
        } catch (NoSuchFileException e) {
            return Cli.fail("cannot read " + e.getFile() + ": no such file");
        } catch (NamedMalformedLog e) {
            return Cli.fail(e.log + ": " + e.getCause().getMessage());
        } catch (InputFailure e) {
            return Cli.fail(e.getMessage());
        }
        PrintWriter out = Cli.stdoutWriter();
        try {
            LogDiff.Difference difference = LogDiff.firstDifference(a, b);
            if (difference == null) {
                out.printf("the logs agree: %d units%n", a.size());
                return 0;
            }
            report(out, difference);
            return Cli.EXIT_FAILURE;
        } finally {
            out.flush();
        }
    }

    private void report(PrintWriter out, LogDiff.Difference d) {
        out.printf("first disagreement at unit %d%s%n", d.unit() + 1,
                d.step() < 0 ? "" : " (scheduler step " + d.step() + " of the capture)");
        side(out, left.getFileName().toString(), d.left());
        side(out, right.getFileName().toString(), d.right());
    }

    private static void side(PrintWriter out, String name, List<LogDiff.Unit> units) {
        out.printf("  %s:%n", name);
        if (units.isEmpty()) {
            out.println("    (ends before it)");
        }
        for (LogDiff.Unit unit : units) {
            out.printf("    %s%n", unit.fact() == null ? "(no fact)" : describe(unit.fact()));
            for (LogEntry decision : unit.decisions()) {
                out.printf("      then %s%n", describe(decision));
            }
        }
    }

    private static String describe(LogEntry entry) {
        StringBuilder text = new StringBuilder("seq ").append(entry.seq()).append(' ').append(entry.type());
        entry.raw().fields().forEachRemaining(field -> {
            String name = field.getKey();
            if (!name.equals("seq") && !name.equals("type") && !name.equals("envelope") && !name.equals("step")) {
                JsonNode value = field.getValue();
                text.append(' ').append(name).append('=').append(value.isTextual() ? value.textValue() : EventJson.toLine(value));
            }
        });
        return text.toString();
    }

    /** A malformed line of one of the two logs, with which log it is. */
    private static final class NamedMalformedLog extends Exception {
        final transient Path log;

        NamedMalformedLog(Path log, MalformedLogException cause) {
            super(cause);
            this.log = log;
        }
    }

    private static List<LogDiff.Unit> units(Path log) throws IOException, NamedMalformedLog {
        LogDiff diff = new LogDiff();
        try (InputStream in = Inputs.open(log)) {
            EventLogReader reader = new EventLogReader(in);
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                diff.add(entry);
            }
        } catch (MalformedLogException e) {
            throw new NamedMalformedLog(log, e);
        } catch (InputFailure e) {
            throw e;
        } catch (IOException e) {
            throw new InputFailure(log, e); // a directory, a device error: named, exit 2
        }
        return diff.units();
    }
}
