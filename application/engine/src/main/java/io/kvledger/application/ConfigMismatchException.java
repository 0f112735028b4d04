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
        super("the stored engine \"" + engineId + "\" is configured with " + differences(stored, requested, true)
                + ", the config given has " + differences(stored, requested, false)
                + " (give the stored config, or none to resume with it)");
        this.stored = stored;
        this.requested = requested;
    }

    /** The fields in which the two configs differ, with the values of one side. */
    private static String differences(EngineConfig stored, EngineConfig requested, boolean storedSide) {
        java.util.List<String> fields = new java.util.ArrayList<>();
        EngineConfig side = storedSide ? stored : requested;
        add(fields, "gpuBlockSize", stored.gpuBlockSize(), requested.gpuBlockSize(), side.gpuBlockSize());
        add(fields, "blocksPerChunk", stored.blocksPerChunk(), requested.blocksPerChunk(), side.blocksPerChunk());
        add(fields, "workers", stored.workers(), requested.workers(), side.workers());
        add(fields, "cpuCapacityChunks", stored.cpuCapacityChunks(), requested.cpuCapacityChunks(), side.cpuCapacityChunks());
        add(fields, "releasePolicy", stored.releasePolicy(), requested.releasePolicy(), side.releasePolicy());
        add(fields, "maxOffloadTokens", stored.maxOffloadTokens(), requested.maxOffloadTokens(), side.maxOffloadTokens());
        add(fields, "offloadPromptOnly", stored.offloadPromptOnly(), requested.offloadPromptOnly(), side.offloadPromptOnly());
        return String.join(", ", fields);
    }

    private static void add(java.util.List<String> fields, String name, Object a, Object b, Object shown) {
        if (!java.util.Objects.equals(a, b)) {
            fields.add(name + " " + shown);
        }
    }

    public EngineConfig stored() {
        return stored;
    }

    public EngineConfig requested() {
        return requested;
    }
}
