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

    @CommandHandler
    public EngineAggregate(ConfigureEngine command) {
        this.engineId = command.engineId();
        apply(Decider.configure(command.config()));
    }

    @CommandHandler
    public StepResult handle(ExecuteStep step) {
        List<EngineEvent> produced = new ArrayList<>();
        for (StepEntry entry : step.entries()) {
            Decision decision = decide(entry);
            List<EngineEvent> events = decision.events(entry.line(), entry.command());
            events.forEach(AggregateLifecycle::apply);
            if (decision instanceof Decision.Accepted accepted) {
                // The decision already folded its events; taking its state saves folding them twice.
                state = accepted.state();
            }
            produced.addAll(events);
        }
        return new StepResult(produced, state);
    }

    private Decision decide(StepEntry entry) {
        try {
            return Decider.decide(state, entry.command());
        } catch (RuntimeException e) {
            throw new StepFailedException(entry, e);
        }
    }

    @EventSourcingHandler
    void on(EngineEvent event, @SourceId String sourceId) {
        if (engineId == null) {
            engineId = sourceId;
        }
        // While a command is handled the decision's own fold is authoritative (see handle); the
        // configuration event and every event read back from storage are folded here.
        if (!AggregateLifecycle.isLive() || state == null) {
            state = EngineFold.evolve(state, event);
        }
    }

    public EngineState state() {
        return state;
    }
}
