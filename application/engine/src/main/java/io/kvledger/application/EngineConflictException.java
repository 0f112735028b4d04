package io.kvledger.application;

/**
 * Another writer (another process on the same durable store) appended to this engine after the
 * ledger last read it, so the step was decided on a stale state: nothing of it was stored. The
 * ledger has reloaded the engine, so {@link KvLedger#state()} is current; the host decides whether
 * its commands still apply and steps again, or stops (one engine should have one writer).
 */
public final class EngineConflictException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String engineId;

    public EngineConflictException(String engineId, Throwable cause) {
        super("engine " + engineId + " was appended to by another writer since this ledger read it; the step was"
                + " not stored (nothing of it), and the ledger now holds the stored state: step again or stop", cause);
        this.engineId = engineId;
    }

    public String engineId() {
        return engineId;
    }
}
