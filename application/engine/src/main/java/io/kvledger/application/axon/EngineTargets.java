package io.kvledger.application.axon;

import io.kvledger.application.engine.ExecuteStep;
import org.axonframework.commandhandling.CommandMessage;
import org.axonframework.modelling.command.AnnotationCommandTargetResolver;
import org.axonframework.modelling.command.CommandTargetResolver;
import org.axonframework.modelling.command.VersionedAggregateIdentifier;

/**
 * The engine a step is for, read from the step: Axon's annotation resolver looks the annotated field up
 * by reflection on every command, a tenth of an engine's step on the simulator's profile. Any other
 * command, and a step without an engine id, go to the annotation resolver, which answers (or refuses)
 * as before.
 */
final class EngineTargets implements CommandTargetResolver {

    private final CommandTargetResolver annotated = AnnotationCommandTargetResolver.builder().build();

    @Override
    public VersionedAggregateIdentifier resolveTarget(CommandMessage<?> command) {
        if (command.getPayload() instanceof ExecuteStep step && step.engineId() != null) {
            return new VersionedAggregateIdentifier(step.engineId(), null); // a step carries no expected version
        }
        return annotated.resolveTarget(command);
    }
}
