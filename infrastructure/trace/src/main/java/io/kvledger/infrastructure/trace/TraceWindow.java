package io.kvledger.infrastructure.trace;

/**
 * The part of a log a trace shows: events with {@code from <= seq <= to} (either bound may be
 * absent), and only one request's tracks, jobs and instants when {@code requestId} is given. The
 * fold still reads the log from its start, so the window opens on the state as it was then.
 */
public record TraceWindow(Long from, Long to, String requestId) {

    public static final TraceWindow WHOLE_LOG = new TraceWindow(null, null, null);

    public TraceWindow {
        if (from != null && from < 1) {
            throw new IllegalArgumentException("--from must be a seq of the log (1 or more), was " + from);
        }
        if (to != null && to < 1) {
            throw new IllegalArgumentException("--to must be a seq of the log (1 or more), was " + to);
        }
        if (from != null && to != null && to < from) {
            throw new IllegalArgumentException("--to " + to + " comes before --from " + from);
        }
    }

    boolean opensAt(long seq) {
        return from == null || seq >= from;
    }

    boolean closedAfter(long seq) {
        return to != null && seq > to;
    }

    boolean shows(String request) {
        return requestId == null || requestId.equals(request);
    }
}
