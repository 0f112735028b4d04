package io.kvledger.application.audit;

import io.kvledger.domain.EngineFold;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.List;

/**
 * The states before the events of the command being judged, rebuilt when a judgement needs one: the log's fold
 * changes its state in place, so the audit keeps no older state, only a private checkpoint (a state nobody folds)
 * and the events folded since it, and re-folds from the checkpoint on demand.
 *
 * <p>A command whose events agree with the rules' (nearly every command of a producer that follows them) needs no
 * state but the current one, read before each event is folded; only a difference, a refusal's case, the omission
 * repair or {@code audit --explain} looks back, and pays one re-fold from the checkpoint. The checkpoint moves up
 * at a command's end once the events since it outnumber the state's entries several times, so a re-fold costs
 * at most a few times the state's size in events and moving it (one copy of the state) stays a small share of
 * the folds it saves.
 *
 * <p>Positions count the events the log's fold has folded (from 0 at the audit's start).
 */
final class Lookback {

    /** The checkpoint moves up no sooner than after this many events. */
    private static final int MIN_EVENTS_BETWEEN_CHECKPOINTS = 4096;
    /** ... and after this many events per entry of the state (requests, tier chunks, jobs). */
    private static final int EVENTS_PER_ENTRY = 8;

    /** The state at {@link #base}, which nothing folds ({@code null} before the first event of a log). */
    private EngineState checkpoint;
    private long base;
    private final List<EngineEvent> since = new ArrayList<>();

    Lookback(EngineState start) {
        this.checkpoint = start == null ? null : privateCopy(start);
    }

    /** The position of the next event the log's fold folds. */
    long position() {
        return base + since.size();
    }

    /** The position of the checkpoint: the first the look back can rebuild. */
    long checkpointPosition() {
        return base;
    }

    /** Records an event the log's fold has just folded. */
    void folded(EngineEvent event) {
        since.add(event);
    }

    /** The log's fold goes on from {@code current} (a repair): the checkpoint is a copy of it, at this position. */
    void restart(EngineState current) {
        base = position();
        since.clear();
        checkpoint = current == null ? null : privateCopy(current);
    }

    /** At a command's end: moves the checkpoint up to {@code current} when the events since it are due. */
    void moveUpIfDue(EngineState current) {
        if (current == null || since.size() < MIN_EVENTS_BETWEEN_CHECKPOINTS) {
            return;
        }
        long entries = (long) current.requests().size() + current.tier().size() + current.jobs().size();
        if (since.size() >= EVENTS_PER_ENTRY * entries) {
            restart(current);
        }
    }

    /**
     * A state of its own (the caller may fold or change it) as the log's fold had it before the event at
     * {@code position}; {@code null} when the log's fold had none there (before a log's first event).
     *
     * @throws IllegalStateException when the position is before the checkpoint (a command judged long ago)
     */
    EngineState at(long position) {
        if (position < base || position > position()) {
            throw new IllegalStateException("the audit looks back only within the command it judges: position "
                    + position + " is outside " + base + ".." + position());
        }
        EngineState state = checkpoint == null ? null : privateCopy(checkpoint);
        for (int i = 0, n = (int) (position - base); i < n; i++) {
            state = EngineFold.evolve(state, since.get(i));
        }
        return state;
    }

    /** A copy nobody else folds: the log's fold changes its state in place. */
    private static EngineState privateCopy(EngineState state) {
        return state.copy();
    }
}
