package io.kvledger.domain.config;

import java.util.Objects;

/**
 * The engine's geometry and policies (contract section 2, config fields).
 *
 * @param gpuBlockSize      {@code B}, tokens per GPU block
 * @param blocksPerChunk    {@code F}, GPU blocks per offloaded chunk
 * @param workers           completions needed before a job ends
 * @param cpuCapacityChunks chunks the CPU tier holds
 * @param releasePolicy     how a terminated request's blocks are released
 * @param maxOffloadTokens  never store a chunk reaching past this many tokens; {@code null} for no limit
 * @param offloadPromptOnly never store a chunk reaching past the prompt
 */
public record EngineConfig(int gpuBlockSize, int blocksPerChunk, int workers, int cpuCapacityChunks,
                           ReleasePolicy releasePolicy, Integer maxOffloadTokens, boolean offloadPromptOnly) {

    public static final EngineConfig DEFAULTS = new EngineConfig(16, 1, 1, 1024, ReleasePolicy.FENCE, null, false);

    public EngineConfig {
        requireAtLeast("gpuBlockSize", gpuBlockSize, 1);
        requireAtLeast("blocksPerChunk", blocksPerChunk, 1);
        requireAtLeast("workers", workers, 1);
        requireAtLeast("cpuCapacityChunks", cpuCapacityChunks, 0);
        Objects.requireNonNull(releasePolicy, "releasePolicy");
        if (maxOffloadTokens != null) {
            requireAtLeast("maxOffloadTokens", maxOffloadTokens, 0);
        }
        if ((long) gpuBlockSize * blocksPerChunk > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("gpuBlockSize * blocksPerChunk must fit in an int");
        }
    }

    /** {@code C = B * F}: tokens per chunk, the unit stored to and loaded from the CPU tier. */
    public int chunkTokens() {
        return gpuBlockSize * blocksPerChunk;
    }

    public EngineConfig withGpuBlockSize(int value) {
        return new EngineConfig(value, blocksPerChunk, workers, cpuCapacityChunks, releasePolicy, maxOffloadTokens, offloadPromptOnly);
    }

    public EngineConfig withBlocksPerChunk(int value) {
        return new EngineConfig(gpuBlockSize, value, workers, cpuCapacityChunks, releasePolicy, maxOffloadTokens, offloadPromptOnly);
    }

    public EngineConfig withWorkers(int value) {
        return new EngineConfig(gpuBlockSize, blocksPerChunk, value, cpuCapacityChunks, releasePolicy, maxOffloadTokens, offloadPromptOnly);
    }

    public EngineConfig withCpuCapacityChunks(int value) {
        return new EngineConfig(gpuBlockSize, blocksPerChunk, workers, value, releasePolicy, maxOffloadTokens, offloadPromptOnly);
    }

    public EngineConfig withReleasePolicy(ReleasePolicy value) {
        return new EngineConfig(gpuBlockSize, blocksPerChunk, workers, cpuCapacityChunks, value, maxOffloadTokens, offloadPromptOnly);
    }

    public EngineConfig withMaxOffloadTokens(Integer value) {
        return new EngineConfig(gpuBlockSize, blocksPerChunk, workers, cpuCapacityChunks, releasePolicy, value, offloadPromptOnly);
    }

    public EngineConfig withOffloadPromptOnly(boolean value) {
        return new EngineConfig(gpuBlockSize, blocksPerChunk, workers, cpuCapacityChunks, releasePolicy, maxOffloadTokens, value);
    }

    private static void requireAtLeast(String field, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(field + " must be >= " + min + ", was " + value);
        }
    }
}
