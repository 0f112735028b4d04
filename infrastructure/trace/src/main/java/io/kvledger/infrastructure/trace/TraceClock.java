package io.kvledger.infrastructure.trace;

import io.kvledger.infrastructure.log.Envelope;
import io.kvledger.infrastructure.log.LogEntry;
import java.time.Instant;

/**
 * The time of each event in the trace, in microseconds. A log read from a store carries Axon's
 * envelope timestamps: then time is wall-clock time since the first event (the events of one step
 * share its timestamp). A plain log has none: then time is the position in the log, one
 * microsecond per {@code seq}. The first event decides; a timestamp that goes backwards (or is
 * missing on a later line) keeps the time of the event before, so the trace never runs backwards.
 */
final class TraceClock {

    enum Source { ENVELOPE, POSITION }

    private Source source;
    private Instant origin;
    private long last;

    /** The time of {@code entry}; the first call fixes the source. */
    long timeOf(LogEntry entry) {
        Envelope envelope = entry.envelope();
        if (source == null) {
            source = envelope != null ? Source.ENVELOPE : Source.POSITION;
            origin = envelope != null ? envelope.timestamp() : null;
        }
        long time;
        if (source == Source.POSITION) {
            time = entry.seq();
        } else if (envelope == null) {
            time = last;
        } else {
            Instant t = envelope.timestamp();
            time = (t.getEpochSecond() - origin.getEpochSecond()) * 1_000_000L + (t.getNano() - origin.getNano()) / 1_000L;
        }
        last = Math.max(last, time);
        return last;
    }

    /** The time of the last event seen. */
    long now() {
        return last;
    }

    /** {@code null} before the first event. */
    Source source() {
        return source;
    }

    /** The wall-clock time of time 0 ({@code null} unless the source is the envelope). */
    Instant origin() {
        return origin;
    }
}
