package io.kvledger.application;

import io.kvledger.application.axon.AxonEngineConfiguration;
import io.kvledger.application.engine.ConfigureEngine;
import io.kvledger.application.engine.ExecuteStep;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.Configuration;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.eventsourcing.eventstore.inmemory.InMemoryEventStorageEngine;

/**
 * The embedding API: a host calls {@link #step} once per scheduler step with that step's commands
 * and acts on the result (flushes to wait for, jobs to submit, blocks it may free). Each step is one
 * Axon command and one unit of work. Not thread-safe: one scheduler thread drives one engine.
 *
 * <pre>{@code
 * try (KvLedger ledger = KvLedger.builder().config(EngineConfig.DEFAULTS).build()) {
 *     StepResult result = ledger.step(List.of(new ComputeTokens("r1", 16), new AppendTokens("r1", List.of(42))));
 *     result.storeJobs().forEach(host::submit);
 * }
 * }</pre>
 *
 * <p>With a durable storage engine that already holds the engine's events, the ledger resumes: it
 * folds them instead of configuring the engine again. A config given to the builder must then equal
 * the stored one ({@link ConfigMismatchException}); with none given, the stored one is used.
 */
public final class KvLedger implements AutoCloseable {

    private final Configuration axon;
    private final CommandGateway gateway;
    private final String engineId;
    private final List<StepListener> listeners;
    private final List<AutoCloseable> resources;
    private final boolean resumed;
    private EngineState state;

    private KvLedger(Builder builder) {
        this.engineId = builder.engineId;
        this.listeners = List.copyOf(builder.listeners);
        this.resources = List.copyOf(builder.resources);
        try {
            this.axon = AxonEngineConfiguration.start(builder.storageEngine);
        } catch (RuntimeException e) {
            closeResources(e);
            throw e;
        }
        this.gateway = axon.commandGateway();
        try {
            Optional<Long> stored = axon.eventStore().lastSequenceNumberFor(engineId);
            this.resumed = stored.isPresent();
            if (!resumed) {
                gateway.sendAndWait(new ConfigureEngine(engineId, builder.config()));
            }
            // An empty step loads the aggregate: from the store when resuming, then kept in the cache.
            this.state = send(List.of()).state();
            if (resumed && builder.config != null && !builder.config.equals(state.config())) {
                throw new ConfigMismatchException(engineId, state.config(), builder.config);
            }
        } catch (RuntimeException e) {
            shutdown(e);
            throw e;
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Decides the commands in order, as one step. */
    public StepResult step(List<? extends EngineCommand> commands) {
        List<StepEntry> entries = new ArrayList<>(commands.size());
        for (EngineCommand command : commands) {
            entries.add(new StepEntry(0, command));
        }
        return stepEntries(entries);
    }

    /** Decides the entries in order, as one step; each entry's line is recorded if it is rejected. */
    public StepResult stepEntries(List<StepEntry> entries) {
        long start = System.nanoTime();
        StepResult result = send(entries);
        long elapsed = System.nanoTime() - start;
        for (StepListener listener : listeners) {
            listener.onStep(entries.size(), result, elapsed);
        }
        return result;
    }

    private StepResult send(List<StepEntry> entries) {
        StepResult result = gateway.sendAndWait(new ExecuteStep(engineId, entries));
        state = result.state();
        return result;
    }

    public StepResult execute(EngineCommand command) {
        return step(List.of(command));
    }

    /** The state after the last step; immutable, so it may be kept and read from any thread. */
    public EngineState state() {
        return state;
    }

    /** The engine's first event, as the aggregate folded it. */
    public EngineConfigured configured() {
        return EngineConfigured.of(state.config());
    }

    public String engineId() {
        return engineId;
    }

    /** Whether the storage engine already held this engine's events, which the ledger then continued. */
    public boolean resumed() {
        return resumed;
    }

    /** Stops Axon, then closes what the builder was given to close, last given first. */
    @Override
    public void close() {
        shutdown(null);
    }

    private void shutdown(RuntimeException primary) {
        try {
            axon.shutdown();
        } catch (RuntimeException e) {
            if (primary == null) {
                closeResources(e);
                throw e;
            }
            primary.addSuppressed(e);
        }
        closeResources(primary);
    }

    private void closeResources(RuntimeException primary) {
        RuntimeException failure = primary;
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                if (failure == null) {
                    failure = e instanceof RuntimeException runtime ? runtime : new IllegalStateException("cannot close " + resources.get(i), e);
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (primary == null && failure != null) {
            throw failure;
        }
    }

    public static final class Builder {
        private EngineConfig config;
        private String engineId = "engine";
        private Supplier<EventStorageEngine> storageEngine = () -> new InMemoryEventStorageEngine();
        private final List<StepListener> listeners = new ArrayList<>();
        private final List<AutoCloseable> resources = new ArrayList<>();

        private Builder() {
        }

        /**
         * The engine's config; {@link EngineConfig#DEFAULTS} when none is given. When the ledger resumes
         * stored events, a config given here must equal the stored one; with none, the stored one is used.
         */
        public Builder config(EngineConfig value) {
            this.config = Objects.requireNonNull(value, "config");
            return this;
        }

        private EngineConfig config() {
            return config == null ? EngineConfig.DEFAULTS : config;
        }

        public Builder engineId(String value) {
            this.engineId = Objects.requireNonNull(value, "engineId");
            return this;
        }

        /**
         * Where events are kept; Axon's in-memory engine by default. The ledger does not close it: give
         * it to {@link #closeWith} too if the ledger owns it.
         */
        public Builder storageEngine(Supplier<EventStorageEngine> value) {
            this.storageEngine = Objects.requireNonNull(value, "storageEngine");
            return this;
        }

        /** Adds a listener told about every step (metrics, for instance). */
        public Builder listener(StepListener value) {
            this.listeners.add(Objects.requireNonNull(value, "listener"));
            return this;
        }

        /**
         * Closes {@code resource} when the ledger closes, after Axon has stopped (and when building
         * fails): a durable store the ledger owns, so it is flushed and unlocked exactly once.
         */
        public Builder closeWith(AutoCloseable resource) {
            resources.add(Objects.requireNonNull(resource, "resource"));
            return this;
        }

        public KvLedger build() {
            return new KvLedger(this);
        }
    }
}
