package io.kvledger.application.engine;

/**
 * A decision failed unexpectedly (a defect, never a rejection). The whole step is rolled back, so no
 * event of it is stored; the message names the entry's line and command to reproduce it.
 */
public final class StepFailedException extends RuntimeException {

    private final transient StepEntry entry;

    public StepFailedException(StepEntry entry, Throwable cause) {
        super("deciding line " + entry.line() + " (" + entry.command() + ") failed: " + cause, cause);
        this.entry = entry;
    }

    public StepEntry entry() {
        return entry;
    }
}
