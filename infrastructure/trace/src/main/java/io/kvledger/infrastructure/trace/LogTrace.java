package io.kvledger.infrastructure.trace;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.application.replay.FoldStep;
import io.kvledger.application.replay.LogFold;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.RequestEvent;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TransferAcknowledged;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.trace.TraceEvents.Args;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A log as a Chrome Trace Event Format file, written as the log is read. The log is folded with the
 * log tools' fold ({@link LogFold}, the domain's {@code EngineFold}); what the trace shows is the
 * change each event made: a request's state slices, its jobs as async slices from scheduling to
 * completion, instants for flushes, rejections, resets and evictions, and counters of the CPU tier,
 * jobs in flight and fenced blocks; a grouped log adds counters by KV cache group ({@link GroupCounters}) and
 * its window frees as instants on the request. Memory follows what is live (requests not yet settled, jobs in
 * flight), not the log's length.
 */
public final class LogTrace implements AutoCloseable {

    static final int ENGINE_PID = 1;
    static final int ENGINE_TID = 1;

    private final TraceEvents out;
    private final TraceWindow window;
    private final String source;
    private final LogFold fold = new LogFold();
    private final TraceClock clock = new TraceClock();
    private final Tracks tracks;
    private final TraceCounters counters;
    private final GroupCounters groupCounters;
    private boolean open;
    private long events;
    /** Read before the current event is folded: whether the job it completes was in flight. */
    private boolean jobInFlightBefore;
    /** Read before the current event is folded: whether it flushes a job of the window's request. */
    private boolean flushOfWindowRequest;

    public LogTrace(OutputStream target, TraceWindow window, String source) throws IOException {
        this.out = new TraceEvents(target);
        this.window = window;
        this.source = source;
        this.tracks = new Tracks(out, window);
        this.counters = new TraceCounters(out);
        this.groupCounters = new GroupCounters(out);
    }

    /** Folds and shows one entry; {@code false} once past the window (the caller may stop reading). */
    public boolean accept(LogEntry entry) throws IOException {
        if (window.closedAfter(entry.seq())) {
            return false;
        }
        events++;
        long ts = clock.timeOf(entry);
        // What the trace needs of the state before the event is read before it is folded, the rest after.
        FoldStep pending = fold.prepare(entry.seq(), entry.event());
        EngineState before = pending.before();
        EngineEvent event = pending.event();
        jobInFlightBefore = before != null && (event instanceof StoreJobCompleted stored ? before.job(stored.jobId()) != null
                : event instanceof LoadJobCompleted loaded && before.job(loaded.jobId()) != null);
        flushOfWindowRequest = event instanceof FlushRequired e && window.requestId() != null && before != null
                && flushConcerns(e, before);
        if (event != null) {
            counters.before(pending);
            groupCounters.before(pending);
        }
        FoldStep step = fold.complete(pending);
        if (!open && window.opensAt(entry.seq())) {
            openWindow(ts);
        }
        if (event == null) {
            return true;
        }
        if (event instanceof EngineConfigured) {
            tracks.closeAll(ts, "EngineConfigured");
        }
        tracks.setOpen(open);
        jobs(entry, step, ts);
        requests(entry, step, ts);
        instants(entry, step, ts);
        counters.changed(step, tracks.storesInFlight(), tracks.loadsInFlight());
        groupCounters.changed(step);
        if (open) {
            counters.emit(ts);
            groupCounters.emit(ts);
        }
        return true;
    }

    /** Closes every slice still open, marked with {@code endedBy}, and ends the document. */
    public TraceSummary finish(String endedBy) throws IOException {
        long ts = clock.now();
        tracks.closeAll(ts, endedBy);
        String clockName = clock.source() == TraceClock.Source.ENVELOPE ? "envelope" : "position";
        out.finishTrace(g -> {
            g.writeStringField("generator", "kvledger trace");
            g.writeStringField("log", source);
            g.writeStringField("clock", clockName);
            g.writeStringField("clockMeaning", clock.source() == TraceClock.Source.ENVELOPE
                    ? "microseconds since the first event's envelope timestamp (" + clock.origin() + ")"
                    : "the position in the log: one microsecond per seq");
            writeNullable(g, "fromSeq", window.from());
            writeNullable(g, "toSeq", window.to());
            g.writeStringField("requestId", window.requestId());
            g.writeNumberField("events", events);
            g.writeNumberField("jobSlices", tracks.jobSlices());
            g.writeNumberField("unfinishedJobSlices", tracks.unfinishedJobs());
            g.writeStringField("endedBy", endedBy);
        });
        return new TraceSummary(events, out.written(), tracks.jobSlices(), tracks.unfinishedJobs(), clockName);
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    private void openWindow(long ts) throws IOException {
        open = true;
        out.processName(ENGINE_PID, "kvledger engine", 0);
        out.threadName(ENGINE_PID, ENGINE_TID, "engine events");
        tracks.setOpen(true);
        tracks.openAll(ts);
    }

    private void jobs(LogEntry entry, FoldStep step, long ts) throws IOException {
        EngineEvent event = step.event();
        if (event instanceof StoreJobScheduled e && step.after().job(e.jobId()) != null) {
            tracks.jobScheduled(e.jobId(), "store", e.requestId(), ts, entry);
        } else if (event instanceof LoadJobScheduled e && step.after().job(e.jobId()) != null) {
            tracks.jobScheduled(e.jobId(), "load", e.requestId(), ts, entry);
        } else if (event instanceof StoreJobCompleted e) {
            ended(step, e.jobId(), ts, entry);
        } else if (event instanceof LoadJobCompleted e) {
            ended(step, e.jobId(), ts, entry);
        } else if (event instanceof CacheReset) {
            tracks.jobsEndedByReset(step.after(), ts, entry.seq());
        }
    }

    private void ended(FoldStep step, long jobId, long ts, LogEntry entry) throws IOException {
        if (jobInFlightBefore && step.after().job(jobId) == null) {
            tracks.jobEnded(jobId, ts, entry);
        }
    }

    private void requests(LogEntry entry, FoldStep step, long ts) throws IOException {
        if (step.event() instanceof RequestEvent e) {
            tracks.requestChanged(e.requestId(), step.after(), ts, entry);
        } else if (step.event() instanceof CacheReset) {
            for (String requestId : tracks.requestIds()) {
                tracks.requestChanged(requestId, step.after(), ts, entry);
            }
        }
    }

    private void instants(LogEntry entry, FoldStep step, long ts) throws IOException {
        if (!open) {
            return;
        }
        EngineEvent event = step.event();
        Args fields = fieldsOf(entry);
        if (event instanceof FlushRequired e) {
            if (window.requestId() == null || flushOfWindowRequest) {
                out.instant(ENGINE_PID, ENGINE_TID, "FlushRequired", ts, "t", fields);
            }
        } else if (event instanceof CacheReset) {
            out.instant(ENGINE_PID, ENGINE_TID, "CacheReset", ts, "g", fields);
        } else if (event instanceof ChunksEvicted || event instanceof ChunksStored) {
            if (window.requestId() == null) {
                out.instant(ENGINE_PID, ENGINE_TID, entry.type(), ts, "t", fields);
            }
        } else if (event instanceof CommandRejected) {
            String requestId = entry.raw().path("requestId").asText(null);
            if (!tracks.instantOnRequest(requestId, "CommandRejected", ts, fields) && window.requestId() == null) {
                out.instant(ENGINE_PID, ENGINE_TID, "CommandRejected", ts, "t", fields);
            }
        } else if (event instanceof StoreDeferred || event instanceof PrefixMatchDeferred
                || event instanceof TransferAcknowledged || event instanceof WindowBlocksFreed) {
            tracks.instantOnRequest(((RequestEvent) event).requestId(), entry.type(), ts, fields);
        }
    }

    private boolean flushConcerns(FlushRequired flush, EngineState before) {
        for (Long jobId : flush.jobIds()) {
            Job job = before.job(jobId);
            if (job != null && window.requestId().equals(job.requestId())) {
                return true;
            }
        }
        return false;
    }

    /** The event's own fields as the log wrote them, with its seq (a store's envelope and step checksum are the line's, not the event's). */
    static Args fieldsOf(LogEntry entry) {
        return g -> {
            g.writeNumberField("seq", entry.seq());
            Iterator<String> names = entry.raw().fieldNames();
            List<String> own = new ArrayList<>();
            names.forEachRemaining(own::add);
            for (String name : own) {
                if (!name.equals("seq") && !name.equals("type") && !name.equals("envelope") && !name.equals("stepCrc32c")) {
                    JsonNode value = entry.raw().get(name);
                    g.writeFieldName(name);
                    g.writeTree(value);
                }
            }
        };
    }

    private static void writeNullable(com.fasterxml.jackson.core.JsonGenerator g, String name, Long value)
            throws IOException {
        if (value == null) {
            g.writeNullField(name);
        } else {
            g.writeNumberField(name, value);
        }
    }
}
