package io.kvledger.infrastructure.cli;

import io.kvledger.domain.event.RequestEvent;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.MalformedLogException;
import io.kvledger.infrastructure.trace.LogTrace;
import io.kvledger.infrastructure.trace.TraceSummary;
import io.kvledger.infrastructure.trace.TraceWindow;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "trace", mixinStandardHelpOptions = true,
        description = {"Writes the log as a Chrome Trace Event Format file, which ui.perfetto.dev and chrome://tracing open.",
                "It has a track per request (its states, its store and load jobs), instants for flushes, rejections and",
                "resets, and counters of the CPU tier, jobs in flight and fenced blocks. See docs/trace.md."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:the trace was written",
                "2:malformed input (named on stderr; the trace up to the line before it is still written and valid), "
                        + "a missing file, or a bad option"})
final class TraceCommand implements Callable<Integer> {

    @Mixin
    LogInput input;

    @Option(names = {"-o", "--output"}, paramLabel = "TRACE.json", description = "Where to write the trace (default: stdout).")
    Path output;

    @Option(names = "--request", paramLabel = "ID", description = "Show only this request (its states, jobs and instants).")
    String requestId;

    @Option(names = "--from", paramLabel = "SEQ", description = "Show events from this seq on (the state before is folded, not shown).")
    Long from;

    @Option(names = "--to", paramLabel = "SEQ", description = "Show events up to this seq, then stop reading.")
    Long to;

    @Spec
    CommandSpec spec;

    /** Whether an event of the log names {@code --request}'s request. */
    private boolean requestSeen;

    @Override
    public Integer call() throws IOException {
        if (requestId != null && requestId.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--request must not be empty: no request has an empty id");
        }
        TraceWindow window;
        try {
            window = new TraceWindow(from, to, requestId);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        if (!Files.exists(input.file)) { // a log, a store file, a segment or a store directory (StoreLog)
            return Cli.fail("cannot read " + input.file + ": no such file");
        }
        // A checked output (issue 10): a failed write is exit 2 with a message, a file is renamed into place
        // at the end; the trace's writer may close its stream, which only flushes it.
        try (Output out = Output.to(output)) {
            OutputStream buffered = new BufferedOutputStream(new java.io.FilterOutputStream(out.stream()) {
                @Override
                public void write(byte[] bytes, int offset, int length) throws IOException {
                    this.out.write(bytes, offset, length);
                }

                @Override
                public void close() throws IOException {
                    flush();
                }
            }, 1 << 16);
            int exit = input.scan("trace", LogScan.Preparation.NONE, scan -> write(scan, buffered, window));
            buffered.flush();
            if (exit == 0 && requestId != null && !requestSeen) {
                // A trace of nothing would look like a request with no events: say so (a bad option, exit 2).
                return Cli.fail("--request " + requestId + ": no event of " + input.file + " names this request"
                        + " (it is never registered there); nothing traced");
            }
            out.commit();
            return exit;
        }
    }

    private int write(LogScan scan, OutputStream out, TraceWindow window) throws IOException, MalformedLogException {
        try (LogTrace trace = new LogTrace(out, window, input.file.toString())) {
            String endedBy = "end of log";
            try {
                for (LogEntry entry = scan.next(); entry != null; entry = scan.next()) {
                    requestSeen |= entry.event() instanceof RequestEvent e && e.requestId().equals(window.requestId());
                    if (!trace.accept(entry)) {
                        endedBy = "end of window";
                        break;
                    }
                }
            } catch (MalformedLogException e) {
                // The trace up to the bad line stays a valid document; the error still exits 2.
                trace.finish("malformed line " + e.line());
                throw e;
            }
            TraceSummary summary = trace.finish(endedBy);
            if (output != null && (requestId == null || requestSeen)) { // else nothing is traced (call says so)
                Cli.stderr().println(String.format(Locale.ROOT,
                        "kvledger trace: %d events -> %d trace events (%d job slices, %d unfinished), time from the %s, in %s",
                        summary.events(), summary.traceEvents(), summary.jobs(), summary.unfinishedJobs(),
                        summary.clock(), output));
            }
            return 0;
        }
    }
}
