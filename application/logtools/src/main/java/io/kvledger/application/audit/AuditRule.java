package io.kvledger.application.audit;

import io.kvledger.application.replay.CommandWindow;
import io.kvledger.application.replay.FoldStep;

/**
 * One family of rules of contract section 4, checked event by event from the state before each event.
 * The {@link Auditor} keeps its rules in a list and runs each on every event, in that order: {@link #check}
 * before the event is folded, {@link #checkFolded} after, then lets each observe the event (to remember
 * what later events are judged against). Only the newest state is read: the state before an event in
 * {@code check}, the state after it in the later two, so the fold may change its state in place.
 */
public interface AuditRule {

    /**
     * Checks one event before it is folded: {@code step} is prepared ({@code before} set, {@code after}
     * {@code null}); {@code window} has seen the events of the current command before it. Whatever a later
     * phase needs of the state before is read here.
     */
    void check(FoldStep step, CommandWindow window, Findings findings);

    /** Checks the event once it is folded, from {@code step.after()}; after every rule's {@link #check}. */
    default void checkFolded(FoldStep step, CommandWindow window, Findings findings) {
    }

    /** Remembers what the event did, from {@code step.after()}; after every rule has checked it. */
    default void observe(FoldStep step) {
    }
}
