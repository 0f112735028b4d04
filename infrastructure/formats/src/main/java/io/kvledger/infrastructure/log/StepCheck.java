package io.kvledger.infrastructure.log;

/**
 * A {@link LineCheck} that also knows where a store's steps (appends) end: a reader of whole steps
 * ({@link EventLogReader#wholeSteps}) holds a step's lines back until its last line has passed the check.
 */
public interface StepCheck extends LineCheck {

    /** Whether the line checked last leaves a step open: its append announced more lines than came so far. */
    boolean insideStep();
}
