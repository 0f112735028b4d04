package io.kvledger.domain.event;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.config.ReleasePolicy;
import java.util.List;

/**
 * The effective configuration; always the first event of a log. {@code groups} is {@code null} when the
 * config gave none (and then it is not written, contract section 7.1). {@code producer} names what wrote
 * the log when that producer knows it (contract 9.3), else {@code null} and not written; no rule reads it.
 */
public record EngineConfigured(int gpuBlockSize, int blocksPerChunk, int workers, int cpuCapacityChunks,
                               ReleasePolicy releasePolicy, Integer maxOffloadTokens,
                               boolean offloadPromptOnly, List<KvCacheGroup> groups, String producer) implements EngineEvent {

    public EngineConfigured(int gpuBlockSize, int blocksPerChunk, int workers, int cpuCapacityChunks,
                            ReleasePolicy releasePolicy, Integer maxOffloadTokens, boolean offloadPromptOnly) {
        this(gpuBlockSize, blocksPerChunk, workers, cpuCapacityChunks, releasePolicy, maxOffloadTokens,
                offloadPromptOnly, null, null);
    }

    public EngineConfigured(int gpuBlockSize, int blocksPerChunk, int workers, int cpuCapacityChunks,
                            ReleasePolicy releasePolicy, Integer maxOffloadTokens, boolean offloadPromptOnly,
                            List<KvCacheGroup> groups) {
        this(gpuBlockSize, blocksPerChunk, workers, cpuCapacityChunks, releasePolicy, maxOffloadTokens,
                offloadPromptOnly, groups, null);
    }

    /** The configuration as kvledger's own engine writes it: without a producer (contract 9.3). */
    public static EngineConfigured of(EngineConfig config) {
        return new EngineConfigured(config.gpuBlockSize(), config.blocksPerChunk(), config.workers(),
                config.cpuCapacityChunks(), config.releasePolicy(), config.maxOffloadTokens(),
                config.offloadPromptOnly(), config.groups());
    }

    public EngineConfig config() {
        return new EngineConfig(gpuBlockSize, blocksPerChunk, workers, cpuCapacityChunks, releasePolicy,
                maxOffloadTokens, offloadPromptOnly, groups);
    }

    /** The same configuration, named as written by {@code value} ({@code null}: by no named producer). */
    public EngineConfigured withProducer(String value) {
        return new EngineConfigured(gpuBlockSize, blocksPerChunk, workers, cpuCapacityChunks, releasePolicy,
                maxOffloadTokens, offloadPromptOnly, groups, value);
    }

    /** As the record's own, with {@code groups} and {@code producer} only when given (so a log without them reads as before). */
    @Override
    public String toString() {
        return "EngineConfigured[gpuBlockSize=" + gpuBlockSize + ", blocksPerChunk=" + blocksPerChunk + ", workers=" + workers
                + ", cpuCapacityChunks=" + cpuCapacityChunks + ", releasePolicy=" + releasePolicy + ", maxOffloadTokens="
                + maxOffloadTokens + ", offloadPromptOnly=" + offloadPromptOnly + (groups == null ? "" : ", groups=" + groups)
                + (producer == null ? "" : ", producer=" + producer) + "]";
    }
}
