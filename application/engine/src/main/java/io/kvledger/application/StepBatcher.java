package io.kvledger.application;

import io.kvledger.application.engine.StepEntry;
import io.kvledger.application.engine.StepResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Feeds a long sequence of commands (a scenario, a shrinker's candidate, a captured workload) to a
 * ledger in steps of at most {@code stepSize} entries: one step costs one engine command, whatever the
 * sequence's length. Each step's result goes to {@code results} as soon as it is decided.
 */
public final class StepBatcher {

    /** Commands per step when a sequence is replayed: large enough that the per-step cost vanishes. */
    public static final int DEFAULT_STEP_SIZE = 256;

    private final KvLedger ledger;
    private final int stepSize;
    private final Consumer<StepResult> results;
    private final List<StepEntry> pending;

    public StepBatcher(KvLedger ledger, int stepSize, Consumer<StepResult> results) {
        if (stepSize < 1) {
            throw new IllegalArgumentException("stepSize must be >= 1, was " + stepSize);
        }
        this.ledger = Objects.requireNonNull(ledger, "ledger");
        this.stepSize = stepSize;
        this.results = Objects.requireNonNull(results, "results");
        this.pending = new ArrayList<>(stepSize);
    }

    public StepBatcher(KvLedger ledger, Consumer<StepResult> results) {
        this(ledger, DEFAULT_STEP_SIZE, results);
    }

    /** Queues {@code entry}; a full step is decided at once. */
    public void add(StepEntry entry) {
        pending.add(Objects.requireNonNull(entry, "entry"));
        if (pending.size() == stepSize) {
            flush();
        }
    }

    /** Decides what is queued as one step (nothing when nothing is). */
    public void flush() {
        if (!pending.isEmpty()) {
            StepResult result = ledger.stepEntries(pending);
            pending.clear();
            results.accept(result);
        }
    }
}
