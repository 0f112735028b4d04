package io.kvledger.domain.event;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.config.ReleasePolicy;
import java.util.List;

/**
 * The effective configuration; always the first event of a log. {@code groups} is {@code null} when the
 * config gave none (and then it is not written, contract section 7.1).
 */
public record EngineConfigured(int gpuBlockSize, int blocksPerChunk, int workers, int cpuCapacityChunks,
                               ReleasePolicy releasePolicy, Integer maxOffloadTokens,
                               boolean offloadPromptOnly, List<KvCacheGroup> groups) implements EngineEvent {

    public EngineConfigured(int gpuBlockSize, int blocksPerChunk, int workers, int cpuCapacityChunks,
                            ReleasePolicy releasePolicy, Integer maxOffloadTokens, boolean offloadPromptOnly) {
        this(gpuBlockSize, blocksPerChunk, workers, cpuCapacityChunks, releasePolicy, maxOffloadTokens,
                offloadPromptOnly, null);
    }

    public static EngineConfigured of(EngineConfig config) {
        return new EngineConfigured(config.gpuBlockSize(), config.blocksPerChunk(), config.workers(),
                config.cpuCapacityChunks(), config.releasePolicy(), config.maxOffloadTokens(),
                config.offloadPromptOnly(), config.groups());
    }

    public EngineConfig config() {
        return new EngineConfig(gpuBlockSize, blocksPerChunk, workers, cpuCapacityChunks, releasePolicy,
                maxOffloadTokens, offloadPromptOnly, groups);
    }

    /** As the record's own, with {@code groups} only when the config gave it (so a log without groups reads as before). */
    @Override
    public String toString() {
        return "EngineConfigured[gpuBlockSize=" + gpuBlockSize + ", blocksPerChunk=" + blocksPerChunk + ", workers=" + workers
                + ", cpuCapacityChunks=" + cpuCapacityChunks + ", releasePolicy=" + releasePolicy + ", maxOffloadTokens="
                + maxOffloadTokens + ", offloadPromptOnly=" + offloadPromptOnly + (groups == null ? "" : ", groups=" + groups) + "]";
    }
}
