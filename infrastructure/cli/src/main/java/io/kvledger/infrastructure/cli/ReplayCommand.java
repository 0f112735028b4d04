package io.kvledger.infrastructure.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import io.kvledger.application.replay.FoldStep;
import io.kvledger.application.replay.LogFold;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import io.kvledger.infrastructure.view.Compact;
import io.kvledger.infrastructure.view.RequestReport;
import io.kvledger.infrastructure.view.RequestText;
import io.kvledger.infrastructure.view.StateText;
import io.kvledger.infrastructure.view.StateView;
import io.kvledger.infrastructure.view.TimelineRow;
import io.kvledger.infrastructure.view.TimelineRow.Snapshot;
import io.kvledger.infrastructure.view.TimelineText;
import io.kvledger.infrastructure.view.ViewJson;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Folds a log with the domain fold and prints the state after event SEQ (default: the end).",
                "With --request, one request; with --timeline too, its events with the change each made."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the state was printed (an unknown or retired request is said so)",
                "2:malformed input (named on stderr, with its line), a missing file, or a bad option "
                        + "(--at below 1 or past the end)"})
final class ReplayCommand implements Callable<Integer> {

    // The line's framing (a store's envelope and step checksum) is not the event's: not shown among its fields.
    private static final String[] OWN_FIELDS = {"seq", "type", "requestId", "envelope", "stepCrc32c"};

    @Mixin
    LogInput input;

    @Option(names = "--at", paramLabel = "SEQ", description = "Stop after the event with this seq (default: the end).")
    Long at;

    @Option(names = "--request", paramLabel = "ID", description = "Show only this request.")
    String requestId;

    @Option(names = "--timeline", description = "With --request: its events in order, each with the change it made.")
    boolean timeline;

    @Option(names = "--json", description = "JSON instead of text (schemas in docs/log-tools.md).")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (at != null && at < 1) {
            throw new ParameterException(spec.commandLine(), "--at must be a seq of the log (1 or more), was " + at);
        }
        if (timeline && requestId == null) {
            throw new ParameterException(spec.commandLine(), "--timeline needs --request ID");
        }
        if (requestId != null && requestId.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--request must not be empty: no request has an empty id");
        }
        PrintWriter out = Cli.stdoutWriter();
        try {
            // A state at --at is folded from the nearest state stored at or before it (a store directory's segment
            // base), not from the log's start; a timeline needs every event of the request, so reads them all.
            long near = at != null && !timeline ? at : 0;
            return input.scan("replay", LogScan.Preparation.HASH_PROMPTS_WHILE_BEHIND, near, scan -> timeline ? timeline(scan, out) : state(scan, out));
        } finally {
            out.flush();
        }
    }

    private int state(LogScan scan, PrintWriter out) throws IOException, MalformedLogException {
        LogFold fold = new LogFold(scan.base());
        Reach reach = new Reach();
        for (LogEntry entry = scan.next(); reach.takes(entry); entry = scan.next()) {
            fold.fold(entry.seq(), entry.event());
        }
        if (reach.pastTheEnd(scan)) {
            return pastTheEnd(reach.lastSeq(scan));
        }
        // A segment that holds nothing after its base (the current one, just rolled) stands at its base.
        long lastSeq = reach.last == null ? scan.seqBefore() : reach.last.seq();
        String lastType = reach.last == null ? "the segment's base" : reach.last.type();
        if (requestId != null) {
            RequestReport report = RequestReport.of(fold.state(), fold, lastSeq, lastType, requestId);
            if (json) {
                out.println(ViewJson.write(report));
            } else {
                RequestText.print(report, fold.state().config(), out);
            }
            return 0;
        }
        // Counted as read from the first kept segment: the lines passed over are one a seq.
        StateView view = StateView.of(fold.state(), fold, lastSeq, lastType, reach.events + scan.linesPassedOver());
        if (json) {
            out.println(ViewJson.write(view));
            return 0;
        }
        StateText.print(view, out);
        if (at != null && lastSeq != at) {
            out.println("(no event has seq " + at + "; this is the state after the last event before it)");
        }
        return 0;
    }

    /** Rows are written as they are found, so a long request's timeline is never held whole. */
    private int timeline(LogScan scan, PrintWriter out) throws IOException, MalformedLogException {
        LogFold fold = new LogFold(scan.base());
        Reach reach = new Reach();
        JsonGenerator jsonOut = json ? ViewJson.stream(out) : null;
        if (jsonOut != null) {
            jsonOut.writeStartObject();
            jsonOut.writeStringField("schema", "kvledger.replay.timeline/1");
            jsonOut.writeStringField("requestId", requestId);
            jsonOut.writeArrayFieldStart("events");
        }
        long rows = 0;
        TimelineText text = null;
        for (LogEntry entry = scan.next(); reach.takes(entry); entry = scan.next()) {
            // The request's figures before the event are read before it is folded, those after it from the new state.
            FoldStep pending = fold.prepare(entry.seq(), entry.event());
            Snapshot before = Snapshot.of(pending.before(), requestId);
            boolean flushesItsJobs = TimelineFilter.flushesItsJobs(pending, requestId);
            FoldStep step = fold.complete(pending);
            Snapshot after = Snapshot.of(step.after(), requestId);
            if (TimelineFilter.concerns(entry, pending, requestId, flushesItsJobs, before, after)) {
                TimelineRow row = new TimelineRow(entry.seq(), entry.type(), before, after, compactFields(entry));
                if (jsonOut != null) {
                    jsonOut.writeObject(row);
                } else {
                    if (rows == 0) {
                        text = TimelineText.of(row);
                        text.header(requestId, out); // only over rows: an unknown request gets no empty table
                    }
                    text.row(row, out);
                }
                rows++;
            }
        }
        if (jsonOut != null) {
            jsonOut.writeEndArray();
            jsonOut.writeEndObject();
            jsonOut.flush();
            out.println();
        } else if (rows == 0 && !reach.pastTheEnd(scan)) {
            out.println("request " + requestId + " has no event in " + input.file
                    + (at == null ? "" : " up to seq " + at) + " (it is never registered there)");
        }
        return reach.pastTheEnd(scan) ? pastTheEnd(reach.lastSeq(scan)) : 0;
    }

    private static String compactFields(LogEntry entry) {
        return Compact.fields(entry.raw(), OWN_FIELDS);
    }

    /** How far the fold goes: to the end, or to the last event at or before {@code --at}. */
    private final class Reach {
        LogEntry last;
        long events;
        boolean stopped;

        boolean takes(LogEntry entry) {
            if (entry == null) {
                return false;
            }
            if (at != null && entry.seq() > at) {
                stopped = true;
                return false;
            }
            last = entry;
            events++;
            return true;
        }

        /** The log ended before {@code --at}: there is no state after it. */
        boolean pastTheEnd(LogScan scan) {
            return at != null && !stopped && lastSeq(scan) < at;
        }

        /** The seq of the last line read; with none (a segment read from its base holds none), the base's. */
        long lastSeq(LogScan scan) {
            return last == null ? scan.seqBefore() : last.seq();
        }
    }

    private int pastTheEnd(long lastSeq) {
        return Cli.fail("--at " + at + " is past the end of " + input.file + ", whose last seq is " + lastSeq);
    }
}
