package io.kvledger.domain.event;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;

/** The effective configuration; always the first event of a log. */
public record EngineConfigured(int gpuBlockSize, int blocksPerChunk, int workers, int cpuCapacityChunks,
                               ReleasePolicy releasePolicy, Integer maxOffloadTokens,
                               boolean offloadPromptOnly) implements EngineEvent {

    public static EngineConfigured of(EngineConfig config) {
        return new EngineConfigured(config.gpuBlockSize(), config.blocksPerChunk(), config.workers(),
                config.cpuCapacityChunks(), config.releasePolicy(), config.maxOffloadTokens(),
                config.offloadPromptOnly());
    }

    public EngineConfig config() {
        return new EngineConfig(gpuBlockSize, blocksPerChunk, workers, cpuCapacityChunks, releasePolicy,
                maxOffloadTokens, offloadPromptOnly);
    }
}
