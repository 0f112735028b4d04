package io.kvledger.application.audit;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;

/**
 * One event of a command as the log shows it.
 *
 * <p>The state before it is not kept (the log's fold changes its state in place): {@link #before} rebuilds it
 * from the audit's checkpoint the first time it is asked for, which only a judgement that found a difference does.
 */
public final class LoggedEvent {

    private final long seq;
    private final EngineEvent event;
    private final EngineEvent logEvent;
    private final boolean flagged;
    private final long position;
    private final Lookback lookback;
    private EngineState before;
    private boolean rebuilt;

    LoggedEvent(long seq, EngineEvent event, EngineEvent logEvent, boolean flagged, long position, Lookback lookback) {
        this.seq = seq;
        this.event = event;
        this.logEvent = logEvent;
        this.flagged = flagged;
        this.position = position;
        this.lookback = lookback;
    }

    /** Its seq. */
    public long seq() {
        return seq;
    }

    /** The event as folded (the log's keys put in token-derived keys). */
    public EngineEvent event() {
        return event;
    }

    /** The event as the log wrote it. */
    public EngineEvent logEvent() {
        return logEvent;
    }

    /** Whether an event-by-event rule already reported it. */
    public boolean flagged() {
        return flagged;
    }

    /** The position of the log's fold before it ({@link Lookback}). */
    long position() {
        return position;
    }

    /**
     * The state just before it, a copy of its own (read it, do not fold it): rebuilt on the first call, which must
     * come while its command is judged.
     */
    public EngineState before() {
        if (!rebuilt) {
            before = lookback.at(position);
            rebuilt = true;
        }
        return before;
    }

    @Override
    public String toString() {
        return "LoggedEvent[seq=" + seq + ", event=" + event + ", flagged=" + flagged + "]";
    }
}
