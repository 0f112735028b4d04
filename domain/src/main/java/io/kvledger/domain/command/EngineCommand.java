package io.kvledger.domain.command;

/**
 * A command of the scenario language (contract section 2). Field values are taken as given:
 * ranges (a count above zero, a non-negative id) are rules the decision checks, so that a bad value
 * becomes a recorded rejection rather than an exception.
 */
public sealed interface EngineCommand
        permits RequestCommand, CompleteTransfer, ResetCache, InvalidCommand {

    /** The contract's name of the command, as written in the {@code cmd} field. */
    String name();
}
