package io.kvledger.simulation;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import java.util.SplittableRandom;

/**
 * What a simulation runs: how many requests, the seed everything random is drawn from, the rates of
 * trouble, and the engine's workers and release policy. The geometry (block size, chunk size, tier
 * capacity, GPU pool) is drawn from the seed too, so different seeds cover different shapes.
 *
 * @param abortRate   share of requests aborted at a random moment of their life
 * @param preemptRate chance per scheduler step of preempting a running request without pressure
 * @param failRate    chance that one worker's completion reports failure
 * @param resetRate   chance per scheduler step of a ResetCache
 * @param requestTokens the longest a request gets (prompt, output, drafts and lookahead); prompt and output
 *                    lengths scale with it (512, the default, gives the original workload)
 * @param gpuBlockLimit GPU blocks of the simulated host, or 0 for {@code 4 * requestTokens / B} (with groups, four
 *                    longest requests' worth of every group's table); fewer than one request needs makes the host
 *                    refuse that request, as vLLM refuses one longer than the model fits
 * @param model       the KV cache groups of the simulated model ({@link SimulationModel#DEFAULT}: none)
 * @param requestControls share of requests registered with per-request controls (contract 9.1), drawn from a
 *                    generator of their own so that 0 (the default) leaves a seed's log exactly as before
 */
public record SimulationOptions(int requests, long seed, double abortRate, double preemptRate, double failRate,
                                int workers, ReleasePolicy releasePolicy, double resetRate, int requestTokens,
                                int gpuBlockLimit, SimulationModel model, double requestControls) {

    public static final SimulationOptions DEFAULTS =
            new SimulationOptions(1000, 1, 0.1, 0.02, 0.02, 2, ReleasePolicy.FENCE, 0.0005);

    /** The default request sizes and GPU pool. */
    public SimulationOptions(int requests, long seed, double abortRate, double preemptRate, double failRate,
                             int workers, ReleasePolicy releasePolicy, double resetRate) {
        this(requests, seed, abortRate, preemptRate, failRate, workers, releasePolicy, resetRate, 512, 0);
    }

    /** The single-group model. */
    public SimulationOptions(int requests, long seed, double abortRate, double preemptRate, double failRate,
                             int workers, ReleasePolicy releasePolicy, double resetRate, int requestTokens,
                             int gpuBlockLimit) {
        this(requests, seed, abortRate, preemptRate, failRate, workers, releasePolicy, resetRate, requestTokens,
                gpuBlockLimit, SimulationModel.DEFAULT);
    }

    /** Without per-request controls. */
    public SimulationOptions(int requests, long seed, double abortRate, double preemptRate, double failRate,
                             int workers, ReleasePolicy releasePolicy, double resetRate, int requestTokens,
                             int gpuBlockLimit, SimulationModel model) {
        this(requests, seed, abortRate, preemptRate, failRate, workers, releasePolicy, resetRate, requestTokens,
                gpuBlockLimit, model, 0);
    }

    public SimulationOptions {
        if (requests < 0) {
            throw new IllegalArgumentException("requests must be >= 0, was " + requests);
        }
        requireRate("abort-rate", abortRate);
        requireRate("preempt-rate", preemptRate);
        requireRate("fail-rate", failRate);
        requireRate("reset-rate", resetRate);
        requireRate("request-controls", requestControls);
        if (workers < 1) {
            throw new IllegalArgumentException("workers must be >= 1, was " + workers);
        }
        if (requestTokens < 16) {
            throw new IllegalArgumentException("request-tokens must be >= 16, was " + requestTokens);
        }
        if (gpuBlockLimit < 0) {
            throw new IllegalArgumentException("gpu-blocks must be >= 0, was " + gpuBlockLimit);
        }
        java.util.Objects.requireNonNull(model, "model");
    }

    /** The engine's config: block size, chunk size, tier capacity and the offload limits drawn from the seed. */
    public EngineConfig engineConfig() {
        SplittableRandom random = geometryRandom();
        int blockSize = new int[] {4, 8, 16}[random.nextInt(3)];
        int blocksPerChunk = 1 + random.nextInt(2);
        int capacity = 16 + random.nextInt(112);
        Integer maxOffloadTokens = random.nextInt(4) == 0 ? 32 + random.nextInt(256) : null;
        boolean offloadPromptOnly = random.nextInt(5) == 0;
        if (model.namesGroups()) {
            // the model fixes the block sizes; a sliding group needs one block per chunk (contract 7.1), and the
            // tier holds the chunks of every group
            return EngineConfig.DEFAULTS.withGroups(model.groups())
                    .withBlocksPerChunk(model.hasSlidingGroup() ? 1 : blocksPerChunk).withWorkers(workers)
                    .withCpuCapacityChunks(capacity * model.groups().size()).withReleasePolicy(releasePolicy)
                    .withMaxOffloadTokens(maxOffloadTokens).withOffloadPromptOnly(offloadPromptOnly);
        }
        return EngineConfig.DEFAULTS.withGpuBlockSize(blockSize).withBlocksPerChunk(blocksPerChunk)
                .withWorkers(workers).withCpuCapacityChunks(capacity).withReleasePolicy(releasePolicy)
                .withMaxOffloadTokens(maxOffloadTokens).withOffloadPromptOnly(offloadPromptOnly);
    }

    /** GPU blocks the simulated host has: enough for a few long requests, few enough that blocks are reused soon. */
    public int gpuBlocks() {
        if (gpuBlockLimit > 0) {
            return gpuBlockLimit;
        }
        if (!model.namesGroups()) {
            return 4 * maxRequestTokens() / engineConfig().gpuBlockSize();
        }
        int blocks = 0;
        for (io.kvledger.domain.config.KvCacheGroup group : model.groups()) {
            blocks += 4 * HostGroups.mostEntries(group, maxRequestTokens(), tokenBudget());
        }
        return blocks;
    }

    /** Tokens one scheduler step may compute. */
    public int tokenBudget() {
        return 256;
    }

    /** Requests admitted (running or loading) at once. */
    public int maxRunning() {
        return 16;
    }

    /** The longest a request gets: prompt, output, draft tokens and lookahead fit in a quarter of the pool. */
    public int maxRequestTokens() {
        return requestTokens;
    }

    /** A length of the default workload (made for 512-token requests) scaled to {@link #requestTokens}, at least 1. */
    int scaled(int length) {
        return requestTokens == 512 ? length : Math.max(1, (int) ((long) length * requestTokens / 512));
    }

    /** A random generator for the workload, independent of the one the geometry is drawn from. */
    SplittableRandom workloadRandom() {
        return new SplittableRandom(seed).split();
    }

    /**
     * The generator of the per-request controls: a third split of the seed, so that drawing them shifts neither
     * the workload's nor the geometry's numbers.
     */
    SplittableRandom controlsRandom() {
        SplittableRandom random = new SplittableRandom(seed);
        random.split();
        random.split();
        return random.split();
    }

    private SplittableRandom geometryRandom() {
        SplittableRandom random = new SplittableRandom(seed);
        random.split(); // the workload's generator comes first, so adding geometry never shifts it
        return random.split();
    }

    private static void requireRate(String name, double value) {
        if (!(value >= 0 && value <= 1)) {
            throw new IllegalArgumentException(name + " must be in 0..1, was " + value);
        }
    }

    public SimulationOptions withRequests(int value) {
        return new SimulationOptions(value, seed, abortRate, preemptRate, failRate, workers, releasePolicy, resetRate,
                requestTokens, gpuBlockLimit, model, requestControls);
    }

    public SimulationOptions withSeed(long value) {
        return new SimulationOptions(requests, value, abortRate, preemptRate, failRate, workers, releasePolicy, resetRate,
                requestTokens, gpuBlockLimit, model, requestControls);
    }

    public SimulationOptions withRequestTokens(int value) {
        return new SimulationOptions(requests, seed, abortRate, preemptRate, failRate, workers, releasePolicy, resetRate,
                value, gpuBlockLimit, model, requestControls);
    }

    public SimulationOptions withGpuBlocks(int value) {
        return new SimulationOptions(requests, seed, abortRate, preemptRate, failRate, workers, releasePolicy, resetRate,
                requestTokens, value, model, requestControls);
    }

    public SimulationOptions withPreemptRate(double value) {
        return new SimulationOptions(requests, seed, abortRate, value, failRate, workers, releasePolicy, resetRate,
                requestTokens, gpuBlockLimit, model, requestControls);
    }

    public SimulationOptions withReleasePolicy(ReleasePolicy value) {
        return new SimulationOptions(requests, seed, abortRate, preemptRate, failRate, workers, value, resetRate,
                requestTokens, gpuBlockLimit, model, requestControls);
    }

    public SimulationOptions withModel(SimulationModel value) {
        return new SimulationOptions(requests, seed, abortRate, preemptRate, failRate, workers, releasePolicy, resetRate,
                requestTokens, gpuBlockLimit, value, requestControls);
    }

    public SimulationOptions withRequestControls(double value) {
        return new SimulationOptions(requests, seed, abortRate, preemptRate, failRate, workers, releasePolicy, resetRate,
                requestTokens, gpuBlockLimit, model, value);
    }
}
