package io.kvledger.application.engine;

import io.kvledger.domain.event.EngineEvent;
import java.util.List;

/**
 * The domain events of one command, applied to Axon as one event message. Axon's cost per event
 * message (creating it, staging it in the unit of work, publishing it: a few microseconds) times the
 * hundreds of events of a scheduler step would alone exceed a step's budget, so the unit of Axon
 * messaging is the step, as it is for commands. Storage writes the domain events one log line each.
 */
public record StepEvents(List<EngineEvent> events) {

    public StepEvents {
        events = List.copyOf(events);
    }

    public static StepEvents of(EngineEvent... events) {
        return new StepEvents(List.of(events));
    }
}
