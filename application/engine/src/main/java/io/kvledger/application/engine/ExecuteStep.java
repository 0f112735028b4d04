package io.kvledger.application.engine;

import java.util.List;
import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * A whole scheduler step as one Axon command, so that the framework's per-command cost (unit of work,
 * lock, interceptors) is paid once per step rather than once per request. Its entries are decided in
 * order, each seeing the state the earlier ones made.
 */
public record ExecuteStep(@TargetAggregateIdentifier String engineId, List<StepEntry> entries) {

    public ExecuteStep {
        entries = List.copyOf(entries);
    }
}
