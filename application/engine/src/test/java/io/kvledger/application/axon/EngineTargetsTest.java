package io.kvledger.application.axon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.kvledger.application.engine.ConfigureEngine;
import io.kvledger.application.engine.ExecuteStep;
import io.kvledger.domain.config.EngineConfig;
import java.util.List;
import org.axonframework.commandhandling.GenericCommandMessage;
import org.axonframework.modelling.command.AnnotationCommandTargetResolver;
import org.axonframework.modelling.command.VersionedAggregateIdentifier;
import org.junit.jupiter.api.Test;

/** The step's engine is read from the step, with the answers Axon's annotation resolver gives. */
class EngineTargetsTest {

    private final EngineTargets targets = new EngineTargets();
    private final AnnotationCommandTargetResolver annotated = AnnotationCommandTargetResolver.builder().build();

    @Test
    void aStepIsForTheEngineItNamesWithNoVersion() {
        GenericCommandMessage<ExecuteStep> step = new GenericCommandMessage<>(new ExecuteStep("engine-7", List.of()));
        VersionedAggregateIdentifier target = targets.resolveTarget(step);
        assertEquals("engine-7", target.getIdentifier());
        assertNull(target.getVersion());
        assertEquals(annotated.resolveTarget(step), target);
    }

    @Test
    void otherCommandsAndAStepWithoutAnEngineAreAnsweredAsTheAnnotationsSay() {
        GenericCommandMessage<ConfigureEngine> configure =
                new GenericCommandMessage<>(new ConfigureEngine("engine-1", EngineConfig.DEFAULTS));
        assertEquals(annotated.resolveTarget(configure), targets.resolveTarget(configure));
        GenericCommandMessage<ExecuteStep> nobody = new GenericCommandMessage<>(new ExecuteStep(null, List.of()));
        IllegalArgumentException expected = assertThrows(IllegalArgumentException.class, () -> annotated.resolveTarget(nobody));
        IllegalArgumentException actual = assertThrows(IllegalArgumentException.class, () -> targets.resolveTarget(nobody));
        assertEquals(expected.getMessage(), actual.getMessage());
    }
}
