package io.kvledger.application.engine;

import static org.axonframework.modelling.command.AggregateLifecycle.apply;

import io.kvledger.domain.EngineFold;
import io.kvledger.domain.decision.Decider;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.List;
import org.axonframework.commandhandling.CommandHandler;
import org.axonframework.eventsourcing.EventSourcingHandler;
import org.axonframework.messaging.annotation.SourceId;
import org.axonframework.modelling.command.AggregateIdentifier;
import org.axonframework.modelling.command.AggregateLifecycle;

/**
 * One engine as an Axon aggregate: its requests, CPU tier, jobs and fences form one consistency
 * boundary, since a store of one request can evict a chunk another is about to load. All decisions
 * are the domain's {@link Decider}; all state changes are the domain's {@link EngineFold}.
 */
public class EngineAggregate {

    @AggregateIdentifier
    private String engineId;
    private EngineState state;

    /** Axon rebuilds the aggregate from its events through this constructor. */
    protected EngineAggregate() {
    }

    /**
     * The aggregate as a snapshot holds it: a store's snapshot message carries it as its payload, and
     * Axon folds the events after the snapshot into it.
     */
    public static EngineAggregate restored(String engineId, EngineState state) {
        EngineAggregate aggregate = new EngineAggregate();
        aggregate.engineId = java.util.Objects.requireNonNull(engineId, "engineId");
        aggregate.state = java.util.Objects.requireNonNull(state, "state");
        return aggregate;
    }

    @CommandHandler
    public EngineAggregate(ConfigureEngine command) {
        this.engineId = command.engineId();
        apply(StepEvents.of(Decider.configure(command.config())));
    }

    @CommandHandler
    public StepResult handle(ExecuteStep step) {
        // About one event a command (a decode step's), so the list rarely grows while the step is decided.
        List<EngineEvent> produced = new ArrayList<>(step.entries().size() + 16);
        EngineState next = state;
        EventLineLimit limit = EventLineLimit.current();
        for (StepEntry entry : step.entries()) {
            Decision decision = decide(next, entry);
            List<EngineEvent> decided = decision.events(entry.line(), entry.command());
            // A command whose events no reader could read back is refused instead (issue 23).
            List<EngineEvent> kept = limit.kept(decided, entry.line(), entry.command());
            // By index: an iterator per command, of a list whose class varies, was a fifth of the step's garbage.
            for (int i = 0; i < kept.size(); i++) {
                EngineEvent event = kept.get(i);
                // Deciding changed nothing: the events kept are folded here, so the next command reads them.
                // Added one by one: addAll would copy each command's list into an array of its own first.
                produced.add(event);
                next = EngineFold.evolve(next, event);
            }
        }
        if (!produced.isEmpty()) {
            apply(new StepEvents(produced));
        }
        state = next;
        return new StepResult(produced, state);
    }

    private static Decision decide(EngineState state, StepEntry entry) {
        try {
            return Decider.decide(state, entry.command());
        } catch (RuntimeException e) {
            throw new StepFailedException(entry, e);
        }
    }

    @EventSourcingHandler
    void on(StepEvents recorded, @SourceId String sourceId) {
        if (engineId == null) {
            engineId = sourceId;
        }
        // While a step is handled the decisions' own fold is authoritative (see handle); the
        // configuration event and everything read back from storage are folded here.
        if (!AggregateLifecycle.isLive() || state == null) {
            for (EngineEvent event : recorded.events()) {
                state = EngineFold.evolve(state, event);
            }
        }
    }

    /**
     * A stream may also hold single domain events (a log imported line by line, or the given-part of
     * a test); they fold the same way.
     */
    @EventSourcingHandler
    void on(EngineEvent event, @SourceId String sourceId) {
        on(StepEvents.of(event), sourceId);
    }

    public EngineState state() {
        return state;
    }
}
