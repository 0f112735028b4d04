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
 * completes the stores the step before scheduled and finishes the request before. Prompts repeat
 * every few requests, so there are tier hits, and the tier is small, so there are evictions. The same
 * steps give the same events in any process, which is how a test knows what a store must hold.
 */
final class SteadyWorkload {

    static final EngineConfig CONFIG = EngineConfig.DEFAULTS.withGpuBlockSize(4).withCpuCapacityChunks(16);

    private long step;

    /** The next step's commands, given the result of the step before ({@code null} for the first). */
    List<EngineCommand> next(StepResult previous) {
        long i = step++;
        String id = "r" + i;
        List<EngineCommand> commands = new ArrayList<>();
        commands.add(new RegisterRequest(id, prompt(i)));
        commands.add(new MatchPrefix(id, 0));
        int block = (int) (3 * i);
        commands.add(new AllocateBlocks(id, List.of(block, block + 1, block + 2), 0));
        commands.add(new ComputeTokens(id, 12));
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

    private static List<Integer> prompt(long i) {
        int family = (int) (i % 5);
        List<Integer> tokens = new ArrayList<>();
        for (int t = 0; t < 12; t++) {
            tokens.add(family * 100 + (t < 8 ? t : (int) (i % 97) + t));
        }
        return tokens;
    }
}
