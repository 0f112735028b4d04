package io.kvledger.application.audit;

import io.kvledger.application.replay.CommandWindow;
import io.kvledger.application.replay.FoldStep;

/**
 * One family of rules of contract section 4, checked event by event from the state before each event.
 * The {@link Auditor} keeps its rules in a list and runs each on every event, in that order, then lets
 * each observe the event (to remember what later events are judged against).
 */
public interface AuditRule {

    /** Checks one folded event; {@code window} has seen the events of the current command before it. */
    void check(FoldStep step, CommandWindow window, Findings findings);

    /** Remembers what the event did; after every rule has checked it. */
    default void observe(FoldStep step) {
    }
}
