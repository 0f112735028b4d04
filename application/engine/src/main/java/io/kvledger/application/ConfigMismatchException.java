package io.kvledger.application;

import io.kvledger.domain.config.EngineConfig;

/**
 * A ledger was asked to resume stored events with a config other than the one they were decided
 * under. Changing the geometry or policies of a running engine would make its stored jobs and
 * releases mean something else, so the ledger refuses rather than pick one.
 */
public final class ConfigMismatchException extends IllegalStateException {

    private final transient EngineConfig stored;
    private final transient EngineConfig requested;

    public ConfigMismatchException(String engineId, EngineConfig stored, EngineConfig requested) {
        super("engine " + engineId + " is stored with " + stored + "; the config given differs: " + requested
                + " (give the stored config, or none to resume with it)");
        this.stored = stored;
        this.requested = requested;
    }

    public EngineConfig stored() {
        return stored;
    }

    public EngineConfig requested() {
        return requested;
    }
}
