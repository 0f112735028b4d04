package io.kvledger.domain.config;

import java.util.List;
import java.util.Objects;

/**
 * The engine's geometry and policies (contract section 2, config fields; section 7.1 for groups).
 *
 * @param gpuBlockSize      {@code B}, tokens per GPU block; with groups {@code lcm(B_g)}, the unit of a GPU hit
 * @param blocksPerChunk    {@code F}, GPU blocks per offloaded chunk, shared by every group
 * @param workers           completions needed before a job ends
 * @param cpuCapacityChunks chunks the CPU tier holds
 * @param releasePolicy     how a terminated request's blocks are released
 * @param maxOffloadTokens  never store a chunk reaching past this many tokens; {@code null} for no limit
 * @param offloadPromptOnly never store a chunk reaching past the prompt
 * @param groups            the configured groups: the KV cache groups as the config gives them, in group order;
 *                          {@code null} when it gives none. {@code EngineConfigured} writes exactly these, so a
 *                          config without groups keeps its bytes; the rules read {@link #effectiveGroups()}
 */
public record EngineConfig(int gpuBlockSize, int blocksPerChunk, int workers, int cpuCapacityChunks,
                           ReleasePolicy releasePolicy, Integer maxOffloadTokens, boolean offloadPromptOnly,
                           List<KvCacheGroup> groups) {

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
        if (groups != null) {
            groups = List.copyOf(groups);
            if (groups.isEmpty()) {
                throw new IllegalArgumentException("groups must not be empty");
            }
            long lcm = 1;
            for (KvCacheGroup group : groups) {
                if (group.isSliding() && blocksPerChunk > 1) {
                    throw new IllegalArgumentException("blocksPerChunk > 1 is not allowed with a SLIDING_WINDOW group");
                }
                if ((long) group.blockSize() * blocksPerChunk > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("blockSize * blocksPerChunk must fit in an int");
                }
                lcm = lcm(lcm, group.blockSize());
                if (lcm > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("the lcm of the groups' block sizes must fit in an int");
                }
            }
            if (gpuBlockSize != lcm) {
                throw new IllegalArgumentException("gpuBlockSize must be lcm(blockSize) = " + lcm + " with groups, was " + gpuBlockSize);
            }
        }
    }

    public EngineConfig(int gpuBlockSize, int blocksPerChunk, int workers, int cpuCapacityChunks,
                        ReleasePolicy releasePolicy, Integer maxOffloadTokens, boolean offloadPromptOnly) {
        this(gpuBlockSize, blocksPerChunk, workers, cpuCapacityChunks, releasePolicy, maxOffloadTokens,
                offloadPromptOnly, null);
    }

    /** {@code C = B * F}: tokens per chunk, the unit stored to and loaded from the CPU tier. */
    public int chunkTokens() {
        return gpuBlockSize * blocksPerChunk;
    }

    /**
     * The effective groups the rules run over, in group order: the configured {@link #groups()}, or, when the
     * config gives none, the one implicit {@code FULL} group of {@code gpuBlockSize} (contract 7.0).
     */
    public List<KvCacheGroup> effectiveGroups() {
        return groups == null ? List.of(KvCacheGroup.full(gpuBlockSize)) : groups;
    }

    /**
     * Whether the model is grouped in the sense of contract 7.0: the config gives groups, and not exactly one
     * {@code FULL} group without {@code eagle}. The rules themselves run over {@link #effectiveGroups()} either
     * way; this only says where the contract adds checks of its own (null entries, no id twice, the table rules
     * of 7.3, {@code FreeWindowBlocks}) and words a rejection per group.
     */
    public boolean isGrouped() {
        return groups != null && !(groups.size() == 1 && !groups.get(0).isSliding() && !groups.get(0).eagle());
    }

    /** {@code G}: the number of groups (1 without {@code groups}). */
    public int groupCount() {
        return groups == null ? 1 : groups.size();
    }

    /** Group {@code g}; without {@code groups}, the one implicit {@code FULL} group of {@code gpuBlockSize}. */
    public KvCacheGroup group(int g) {
        return groups == null ? KvCacheGroup.full(gpuBlockSize) : groups.get(g);
    }

    /** {@code C_g = B_g * F}. */
    public int chunkTokens(int g) {
        return (groups == null ? gpuBlockSize : groups.get(g).blockSize()) * blocksPerChunk;
    }

    /** {@code x_g}: 1 for an eagle group, else 0 (a hot path's read: the implicit group is not built for it). */
    public int eagleChunks(int g) {
        return groups == null ? 0 : groups.get(g).eagleChunks();
    }

    /** Whether group {@code g} is a {@code SLIDING_WINDOW} group (the implicit group is not built for it). */
    public boolean isSliding(int g) {
        return groups != null && groups.get(g).isSliding();
    }

    /** Whether some group is a {@code SLIDING_WINDOW} group. */
    public boolean hasSlidingGroup() {
        if (groups == null) {
            return false;
        }
        for (KvCacheGroup group : groups) {
            if (group.isSliding()) {
                return true;
            }
        }
        return false;
    }

    /** The block size of the chained hashes keys are taken from: {@code gcd(B_g)} (every {@code C_g} is a multiple). */
    public int hashBlockSize() {
        if (groups == null) {
            return gpuBlockSize;
        }
        int gcd = 0;
        for (KvCacheGroup group : groups) {
            gcd = (int) gcd(gcd, group.blockSize());
        }
        return gcd;
    }

    /** {@code W_g = ceil(w_g / C_g)}, the window in chunks of a sliding group; 0 for a {@code FULL} group. */
    public int windowChunks(int g) {
        KvCacheGroup group = group(g);
        if (!group.isSliding()) {
            return 0;
        }
        int c = chunkTokens(g);
        return (int) (((long) group.slidingWindow() + c - 1) / c);
    }

    /**
     * The alignment {@code A_g = floor(Cf / C_g)}, or 0 where section 7.1 leaves it undefined: only for a
     * sliding group, when every {@code FULL} group has the same chunk size {@code Cf} (at least one),
     * {@code Cf > C_g} and {@code W_g * C_g < Cf}.
     */
    public int alignment(int g) {
        if (!group(g).isSliding()) {
            return 0;
        }
        int fullChunk = 0;
        for (int other = 0; other < groupCount(); other++) {
            if (!group(other).isSliding()) {
                int c = chunkTokens(other);
                if (fullChunk != 0 && fullChunk != c) {
                    return 0;
                }
                fullChunk = c;
            }
        }
        int c = chunkTokens(g);
        if (fullChunk == 0 || fullChunk <= c || (long) windowChunks(g) * c >= fullChunk) {
            return 0;
        }
        return fullChunk / c;
    }

    public EngineConfig withGpuBlockSize(int value) {
        return new EngineConfig(value, blocksPerChunk, workers, cpuCapacityChunks, releasePolicy, maxOffloadTokens, offloadPromptOnly, groups);
    }

    public EngineConfig withBlocksPerChunk(int value) {
        return new EngineConfig(gpuBlockSize, value, workers, cpuCapacityChunks, releasePolicy, maxOffloadTokens, offloadPromptOnly, groups);
    }

    public EngineConfig withWorkers(int value) {
        return new EngineConfig(gpuBlockSize, blocksPerChunk, value, cpuCapacityChunks, releasePolicy, maxOffloadTokens, offloadPromptOnly, groups);
    }

    public EngineConfig withCpuCapacityChunks(int value) {
        return new EngineConfig(gpuBlockSize, blocksPerChunk, workers, value, releasePolicy, maxOffloadTokens, offloadPromptOnly, groups);
    }

    public EngineConfig withReleasePolicy(ReleasePolicy value) {
        return new EngineConfig(gpuBlockSize, blocksPerChunk, workers, cpuCapacityChunks, value, maxOffloadTokens, offloadPromptOnly, groups);
    }

    public EngineConfig withMaxOffloadTokens(Integer value) {
        return new EngineConfig(gpuBlockSize, blocksPerChunk, workers, cpuCapacityChunks, releasePolicy, value, offloadPromptOnly, groups);
    }

    public EngineConfig withOffloadPromptOnly(boolean value) {
        return new EngineConfig(gpuBlockSize, blocksPerChunk, workers, cpuCapacityChunks, releasePolicy, maxOffloadTokens, value, groups);
    }

    /** The config with these groups and {@code gpuBlockSize = lcm(B_g)} ({@code null}: no groups, {@code gpuBlockSize} kept). */
    public EngineConfig withGroups(List<KvCacheGroup> value) {
        if (value == null) {
            return new EngineConfig(gpuBlockSize, blocksPerChunk, workers, cpuCapacityChunks, releasePolicy, maxOffloadTokens, offloadPromptOnly, null);
        }
        long lcm = 1;
        for (KvCacheGroup group : value) {
            lcm = Math.min(lcm(lcm, group.blockSize()), (long) Integer.MAX_VALUE + 1);
        }
        if (lcm > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("the lcm of the groups' block sizes must fit in an int");
        }
        return new EngineConfig((int) lcm, blocksPerChunk, workers, cpuCapacityChunks, releasePolicy, maxOffloadTokens, offloadPromptOnly, value);
    }

    /** As the record's own, with {@code groups} only when the config gives it (so a config without groups reads as before). */
    @Override
    public String toString() {
        return "EngineConfig[gpuBlockSize=" + gpuBlockSize + ", blocksPerChunk=" + blocksPerChunk + ", workers=" + workers
                + ", cpuCapacityChunks=" + cpuCapacityChunks + ", releasePolicy=" + releasePolicy + ", maxOffloadTokens="
                + maxOffloadTokens + ", offloadPromptOnly=" + offloadPromptOnly + (groups == null ? "" : ", groups=" + groups) + "]";
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    private static long lcm(long a, long b) {
        return a / gcd(a, b) * b;
    }

    private static void requireAtLeast(String field, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(field + " must be >= " + min + ", was " + value);
        }
    }
}
