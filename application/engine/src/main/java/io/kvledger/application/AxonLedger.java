package io.kvledger.application;

import io.kvledger.application.axon.AxonEngineConfiguration;
import io.kvledger.application.engine.ConfigureEngine;
import io.kvledger.application.engine.ExecuteStep;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.application.engine.StepResult;
import io.kvledger.application.spi.OpenStore;
import io.kvledger.application.spi.StoreDurability;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.axonframework.config.Configuration;
import org.axonframework.modelling.command.AggregateNotFoundException;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.axonframework.modelling.command.ConcurrencyException;

/**
 * The real {@link KvLedger}: each step is one Axon command and one unit of work on the engine's one
 * aggregate. Not public: hosts see the interface, and no Axon type is part of the embedding API.
 */
final class AxonLedger implements KvLedger {

    private final Configuration axon;
    private final CommandGateway gateway;
    private final String engineId;
    private final List<StepListener> listeners = new ArrayList<>();
    private final StoreDurability durability;
    /** Closed last first: the store comes first, so it is closed after everything given to closeWith. */
    private final List<AutoCloseable> resources;
    private final boolean resumed;
    private EngineState state;
    /** Why the engine could not be loaded again after a step failed; {@code null} while it could. */
    private RuntimeException unloadable;
    private boolean closed;

    AxonLedger(KvLedger.Builder builder) {
        this.engineId = builder.engineIdValue();
        this.resources = new ArrayList<>(builder.resourcesValue());
        OpenStore store;
        try {
            store = builder.storeValue().open();
        } catch (RuntimeException e) {
            closeResources(e);
            throw e;
        }
        resources.add(0, store);
        this.durability = store.durability();
        listeners.addAll(store.stepListeners());
        listeners.addAll(builder.listenersValue());
        try {
            this.axon = AxonEngineConfiguration.start(store::storageEngine, store.serializer(), store.transactionManager());
        } catch (RuntimeException e) {
            closeResources(e);
            throw e;
        }
        this.gateway = axon.commandGateway();
        try {
            Optional<Long> stored = axon.eventStore().lastSequenceNumberFor(engineId);
            this.resumed = stored.isPresent() || !configure(builder.effectiveConfig());
            // An empty step loads the aggregate: from the store when resuming, then kept in the cache.
            this.state = send(List.of()).state();
            if (resumed && builder.givenConfig() != null && !builder.givenConfig().equals(state.config())) {
                throw new ConfigMismatchException(engineId, state.config(), builder.givenConfig());
            }
        } catch (RuntimeException e) {
            shutdown(e);
            throw e;
        }
    }

    @Override
    public StepResult stepEntries(List<StepEntry> entries) {
        long start = System.nanoTime();
        StepResult result = send(entries);
        long elapsed = System.nanoTime() - start;
        for (StepListener listener : listeners) {
            listener.onStep(entries.size(), result, elapsed);
        }
        return result;
    }

    @Override
    public CompletableFuture<StepResult> stepEntriesAsync(List<StepEntry> entries) {
        long start = System.nanoTime();
        StepResult result = durability.pipelined(() -> send(entries));
        long elapsed = System.nanoTime() - start;
        CompletableFuture<Void> stored = durability.stored(); // before the listeners: a roll may change the segment
        for (StepListener listener : listeners) {
            listener.onStep(entries.size(), result, elapsed);
        }
        return stored.thenApply(done -> result);
    }

    @Override
    public void flush() {
        durability.flush();
    }

    /** Configures a new engine; false when another process created it first (then it is resumed). */
    private boolean configure(EngineConfig config) {
        try {
            gateway.sendAndWait(new ConfigureEngine(engineId, config));
            return true;
        } catch (AggregateStreamCreationException e) {
            return false;
        }
    }

    private StepResult send(List<StepEntry> entries) {
        StepResult result;
        try {
            result = gateway.sendAndWait(new ExecuteStep(engineId, entries));
        } catch (ConcurrencyException e) {
            // The rollback evicted the stale aggregate: an empty step (no events, no append) reloads it.
            state = gateway.<StepResult>sendAndWait(new ExecuteStep(engineId, List.of())).state();
            throw new EngineConflictException(engineId, e);
        } catch (AggregateNotFoundException e) {
            if (unloadable == null) {
                throw e;
            }
            throw new IllegalStateException("engine " + engineId + " is gone: a step failed, and its store keeps no "
                    + "events to load the engine again from (LedgerStore.discarding()); build a new ledger", e);
        } catch (RuntimeException e) {
            reloadAfter(e);
            throw e;
        }
        state = result.state();
        unloadable = null;
        return result;
    }

    /**
     * After a step failed: the fold may have changed the aggregate's state in place with the step's first commands
     * before the failure, and Axon dropped that aggregate when it rolled the step back; an empty step (no events, no
     * append) loads it again from the store, so that {@link #state()} is the state before the failed step.
     */
    private void reloadAfter(RuntimeException failure) {
        try {
            state = gateway.<StepResult>sendAndWait(new ExecuteStep(engineId, List.of())).state();
            unloadable = null;
        } catch (RuntimeException reload) {
            unloadable = reload;
            failure.addSuppressed(reload);
        }
    }

    @Override
    public EngineState state() {
        if (unloadable != null) {
            throw new IllegalStateException("engine " + engineId + " has no state: a step failed and the engine could "
                    + "not be loaded again from its store", unloadable);
        }
        return state;
    }

    @Override
    public String engineId() {
        return engineId;
    }

    @Override
    public boolean resumed() {
        return resumed;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            shutdown(null);
        }
    }

    @Override
    public String toString() {
        return "KvLedger[" + engineId + (resumed ? ", resumed" : "") + "]";
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
}
