package io.kvledger.application.engine;

import io.kvledger.domain.command.EngineCommand;
import java.util.Objects;

/**
 * One domain command of a scheduler step.
 *
 * @param line where the command came from (a scenario's line number; {@code KvLedger.step}: the position in the step,
 *             from 1), recorded in a rejection
 */
public record StepEntry(long line, EngineCommand command) {

    public StepEntry {
        Objects.requireNonNull(command, "command");
    }
}
