package io.kvledger.tests.store;

import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.StoreJobScheduled;
import java.util.ArrayList;
import java.util.List;

/**
 * An endless, deterministic host: each step registers, matches, allocates and computes one request,
 * completes the stores the step before scheduled and finishes the request before. Prompts of one of
 * five families share their first half, so there are tier hits, and the tier holds few prompts, so
 * there are evictions. The same steps give the same events in any process, which is how a test knows
 * what a store must hold.
 */
final class SteadyWorkload {

    static final int BLOCK = 4;
    static final EngineConfig CONFIG = EngineConfig.DEFAULTS.withGpuBlockSize(BLOCK).withCpuCapacityChunks(16);

    private final int promptTokens;
    private long step;

    /** Prompts of 12 tokens: small steps. */
    SteadyWorkload() {
        this(12);
    }

    /** Prompts of {@code promptTokens} (a multiple of {@link #BLOCK}); the config's tier holds four of them. */
    SteadyWorkload(int promptTokens) {
        this.promptTokens = promptTokens;
    }

    /** The config for prompts of {@code promptTokens}. */
    static EngineConfig config(int promptTokens) {
        return CONFIG.withCpuCapacityChunks(Math.max(16, 4 * promptTokens / BLOCK));
    }

    /** The next step's commands, given the result of the step before ({@code null} for the first). */
    List<EngineCommand> next(StepResult previous) {
        long i = step++;
        String id = "r" + i;
        List<EngineCommand> commands = new ArrayList<>();
        commands.add(new RegisterRequest(id, prompt(i)));
        commands.add(new MatchPrefix(id, 0));
        int blocks = promptTokens / BLOCK;
        List<Integer> blockIds = new ArrayList<>(blocks);
        for (int b = 0; b < blocks; b++) {
            blockIds.add((int) (i * blocks + b));
        }
        commands.add(new AllocateBlocks(id, blockIds, 0));
        commands.add(new ComputeTokens(id, promptTokens));
        if (previous != null) {
            for (StoreJobScheduled job : previous.storeJobs()) {
                commands.add(new CompleteTransfer(job.jobId(), true));
            }
        }
        if (i > 0) {
            commands.add(new FinishRequest("r" + (i - 1), FinishReason.STOPPED));
        }
        return commands;
    }

    private List<Integer> prompt(long i) {
        int family = (int) (i % 5);
        List<Integer> tokens = new ArrayList<>(promptTokens);
        for (int t = 0; t < promptTokens; t++) {
            tokens.add(family * 100_000 + (t < promptTokens / 2 ? t : (int) (i % 997) * 1000 + t));
        }
        return tokens;
    }
}
