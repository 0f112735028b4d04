package io.kvledger.application;

import io.kvledger.application.engine.StepEntry;
import io.kvledger.application.engine.StepFailedException;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The embedding API: a host calls {@link #step} once per scheduler step with that step's commands
 * and acts on the result (flushes to wait for, jobs to submit, blocks it may free). Not thread-safe:
 * one scheduler thread drives one ledger. A host (or a simulator, or a test double) depends on this
 * interface; {@link #builder()} makes the real one, event-sourced on Axon Framework inside.
 *
 * <pre>{@code
 * try (KvLedger ledger = KvLedger.builder().config(EngineConfig.DEFAULTS).store(LedgerStore.inMemory()).build()) {
 *     StepResult result = ledger.step(List.of(new ComputeTokens("r1", 16), new AppendTokens("r1", List.of(42))));
 *     result.storeJobs().forEach(host::submit);
 * }
 * }</pre>
 *
 * <p>On a store that already holds the engine's events, the ledger resumes: it folds them instead of
 * configuring the engine again. A config given to the builder must then equal the stored one
 * ({@link ConfigMismatchException}); with none given, the stored one is used. On a store several
 * processes share (JDBC), a step decided on a state another writer has since appended to is not stored
 * and fails with {@link EngineConflictException}; the ledger then holds the stored state.
 */
public interface KvLedger extends AutoCloseable {

    static Builder builder() {
        return new Builder();
    }

    /**
     * Decides the commands in order, as one step, and hands its events to the store. Returns once they
     * are stored as the store promises a returned step: in memory, in a JDBC transaction committed, in
     * a file store under {@code fsync always} written and forced. A file store under {@code never} or
     * {@code interval} writes them after the step returns, on its own thread: the step is decided and
     * in {@link #state()}, but a process crash before the write loses it ({@link #flush()} waits for
     * the writes; a write that fails makes the next step, {@code flush()} or {@code close()} throw).
     *
     * A rejected command's {@code CommandRejected.line} is its position in {@code commands}, from 1
     * ({@link #stepEntries} gives other numbers, such as a scenario's lines).
     *
     * @throws StepFailedException when a decision fails unexpectedly (a defect); nothing of the step is stored,
     *         and the ledger loads the engine again from its store, so {@link #state()} and the next step are as
     *         before the failed step ({@link LedgerStore#discarding()} keeps nothing to load it from: then
     *         {@code state()} and every later step throw {@link IllegalStateException}, and a new ledger is needed)
     */
    default StepResult step(List<? extends EngineCommand> commands) {
        return stepEntries(numbered(commands));
    }

    /** The commands as entries at lines 1, 2, ...: their positions in the step. */
    private static List<StepEntry> numbered(List<? extends EngineCommand> commands) {
        List<StepEntry> entries = new ArrayList<>(commands.size());
        for (EngineCommand command : commands) {
            entries.add(new StepEntry(entries.size() + 1, command));
        }
        return entries;
    }

    /** Decides the entries in order, as one step; each entry's line is recorded if it is rejected. */
    StepResult stepEntries(List<StepEntry> entries);

    /**
     * Decides the commands in order, as one step, before returning (so {@link #state()} and the next
     * step follow it at once), without waiting for the store: the future completes with the step's
     * result once its events are stored as {@link #step} would have returned them (under
     * {@code fsync always}: written and forced, one force for all the steps queued meanwhile; under
     * {@code never} and {@code interval}: written), or exceptionally when the store fails to, after
     * which every later step fails too. Futures complete in step order, on the store's thread: run
     * slow or blocking work with the {@code ...Async} methods of the future.
     *
     * @throws StepFailedException when a decision fails unexpectedly (a defect); nothing of the step is stored
     */
    default CompletableFuture<StepResult> stepAsync(List<? extends EngineCommand> commands) {
        return stepEntriesAsync(numbered(commands));
    }

    /** {@link #stepAsync} of entries; this default decides and stores the step before returning. */
    default CompletableFuture<StepResult> stepEntriesAsync(List<StepEntry> entries) {
        return CompletableFuture.completedFuture(stepEntries(entries));
    }

    /**
     * Returns once every step returned so far is written to the store and, unless the store never
     * forces ({@code fsync never}), forced to the disk. Nothing to do for a store whose steps are
     * stored when they return.
     *
     * @throws RuntimeException when the store failed to write or force a step that had returned
     */
    default void flush() {
    }

    /** One command as a step of its own. */
    default StepResult execute(EngineCommand command) {
        return step(List.of(command));
    }

    /**
     * The state after the last step, as a view: read it on the thread that steps the ledger, after a step
     * returns and before the next one starts (or after {@link #close}). It is valid until the next step: the
     * engine may fold that step into the same state in place, requests included ({@code heldRequest} gives the
     * request the state holds, not a copy), so a view or a request kept past it, or read on another thread while
     * the ledger steps, may show a later state or a torn one. A host that needs figures of a
     * step later (a metrics scrape, another thread) copies them out when the step returns, as
     * {@code MicrometerStepListener} does, or keeps {@code state().copy()} (a deep copy of the state's
     * containers and its requests, one entry per request, job, chunk and retired id: about a snapshot's cost
     * without its text);
     * a past state is had by folding the events again (the log tools' {@code replay --at SEQ}).
     */
    EngineState state();

    /** The engine's first event, as the engine folded it. */
    default EngineConfigured configured() {
        return EngineConfigured.of(state().config());
    }

    String engineId();

    /** Whether the store already held this engine's events, which the ledger then continued. */
    boolean resumed();

    /**
     * Stops the engine, then closes what the builder was given to close (last given first), then the
     * store, which writes (and forces, as its policy says) every step returned before.
     */
    @Override
    void close();

    /** Builds the real ledger. */
    final class Builder {
        private EngineConfig config;
        private String engineId = "engine";
        private LedgerStore store = LedgerStore.inMemory();
        private final List<StepListener> listeners = new ArrayList<>();
        private final List<AutoCloseable> resources = new ArrayList<>();

        Builder() {
        }

        /**
         * The engine's config; {@link EngineConfig#DEFAULTS} when none is given. When the ledger resumes
         * stored events, a config given here must equal the stored one; with none, the stored one is used.
         */
        public Builder config(EngineConfig value) {
            this.config = Objects.requireNonNull(value, "config");
            return this;
        }

        /** @throws IllegalArgumentException when empty: the id names the engine's events in a store */
        public Builder engineId(String value) {
            if (Objects.requireNonNull(value, "engineId").isEmpty()) {
                throw new IllegalArgumentException("engineId must not be empty: it names the engine's events in a store");
            }
            this.engineId = value;
            return this;
        }

        /**
         * Where events are kept: {@link LedgerStore#inMemory()} by default. The store is opened when
         * the ledger is built and closed when it closes (or when building fails).
         */
        public Builder store(LedgerStore value) {
            this.store = Objects.requireNonNull(value, "store");
            return this;
        }

        /** Adds a listener told about every step (metrics, for instance). */
        public Builder listener(StepListener value) {
            this.listeners.add(Objects.requireNonNull(value, "listener"));
            return this;
        }

        /**
         * Closes {@code resource} when the ledger closes, after the engine has stopped (and when building
         * fails), last given first, before the store itself.
         */
        public Builder closeWith(AutoCloseable resource) {
            resources.add(Objects.requireNonNull(resource, "resource"));
            return this;
        }

        /**
         * Opens the store and starts the engine on it, resuming what the store holds.
         *
         * @throws ConfigMismatchException when the store holds the engine under another config
         */
        public KvLedger build() {
            return new AxonLedger(this);
        }

        EngineConfig givenConfig() {
            return config;
        }

        EngineConfig effectiveConfig() {
            return config == null ? EngineConfig.DEFAULTS : config;
        }

        String engineIdValue() {
            return engineId;
        }

        LedgerStore storeValue() {
            return store;
        }

        List<StepListener> listenersValue() {
            return List.copyOf(listeners);
        }

        List<AutoCloseable> resourcesValue() {
            return List.copyOf(resources);
        }
    }
}
