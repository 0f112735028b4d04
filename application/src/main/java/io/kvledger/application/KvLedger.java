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
 */
public final class KvLedger implements AutoCloseable {

    private final Configuration axon;
    private final CommandGateway gateway;
    private final String engineId;
    private final List<StepListener> listeners;
    private EngineState state;

    private KvLedger(Builder builder) {
        this.engineId = builder.engineId;
        this.listeners = List.copyOf(builder.listeners);
        this.axon = AxonEngineConfiguration.start(builder.storageEngine);
        this.gateway = axon.commandGateway();
        gateway.sendAndWait(new ConfigureEngine(engineId, builder.config));
        this.state = send(List.of()).state();
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

    @Override
    public void close() {
        axon.shutdown();
    }

    public static final class Builder {
        private EngineConfig config = EngineConfig.DEFAULTS;
        private String engineId = "engine";
        private Supplier<EventStorageEngine> storageEngine = () -> new InMemoryEventStorageEngine();
        private final List<StepListener> listeners = new ArrayList<>();

        private Builder() {
        }

        public Builder config(EngineConfig value) {
            this.config = Objects.requireNonNull(value, "config");
            return this;
        }

        public Builder engineId(String value) {
            this.engineId = Objects.requireNonNull(value, "engineId");
            return this;
        }

        /** Where events are kept; Axon's in-memory engine by default. */
        public Builder storageEngine(Supplier<EventStorageEngine> value) {
            this.storageEngine = Objects.requireNonNull(value, "storageEngine");
            return this;
        }

        /** Adds a listener told about every step (metrics, for instance). */
        public Builder listener(StepListener value) {
            this.listeners.add(Objects.requireNonNull(value, "listener"));
            return this;
        }

        public KvLedger build() {
            return new KvLedger(this);
        }
    }
}
