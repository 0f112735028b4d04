package io.kvledger.tests.audit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.application.audit.Auditor;
import io.kvledger.application.finding.Finding;
import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.command.ResetCache;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A log written by kvledger audits clean, whatever the workload: seeded random workloads (shared
 * prefixes, chunked prefill, speculative tokens, loads, preemption, aborts and finishes with transfers
 * in flight, failed and out-of-order completions, block reuse, resets) through the embedding API.
 */
class RandomWorkloadAuditTest {

    private static final int SEEDS = 40;
    private static final int COMMANDS = 200;

    @Test
    void everyRandomWorkloadAuditsClean() {
        Set<String> kinds = new java.util.TreeSet<>();
        for (long seed = 1; seed <= SEEDS; seed++) {
            Workload workload = new Workload(new Random(seed));
            Auditor auditor = new Auditor();
            List<Finding> violations = new ArrayList<>();
            try (KvLedger ledger = KvLedger.builder().config(workload.config()).build()) {
                long seq = 1;
                violations.addAll(auditor.check(seq, ledger.configured()));
                for (int i = 0; i < COMMANDS; i++) {
                    for (EngineEvent event : ledger.execute(workload.next(ledger.state())).events()) {
                        violations.addAll(auditor.check(++seq, event));
                        kinds.add(event.getClass().getSimpleName());
                    }
                }
                violations.addAll(auditor.finish());
            }
            assertEquals(List.of(), violations, "seed " + seed + " with " + workload.config());
        }
        // The workloads must reach the paths the rules are about, or a clean audit proves little.
        assertTrue(kinds.containsAll(List.of("StoreJobScheduled", "LoadJobScheduled", "FlushRequired", "ChunksEvicted",
                "BlocksReleased", "CacheReset", "TransferAcknowledged", "StoreDeferred", "RequestPreempted")), kinds.toString());
    }

    /** Mostly valid commands for the state at hand; rejected ones are part of a real log too. */
    private static final class Workload {

        private final Random random;
        private final EngineConfig config;
        private int registered;

        Workload(Random random) {
            this.random = random;
            this.config = new EngineConfig(1 + random.nextInt(4), 1 + random.nextInt(2), 1 + random.nextInt(2),
                    List.of(0, 2, 4, 8, 1024).get(random.nextInt(5)),
                    random.nextBoolean() ? ReleasePolicy.FENCE : ReleasePolicy.DELAY_FREE,
                    random.nextInt(4) == 0 ? random.nextInt(24) : null, random.nextInt(4) == 0);
        }

        EngineConfig config() {
            return config;
        }

        EngineCommand next(EngineState state) {
            int roll = random.nextInt(100);
            if (roll < 12 || state.requests().isEmpty()) {
                return new RegisterRequest("r" + registered++, prompt());
            }
            if (roll < 32 && !state.jobs().isEmpty()) {
                List<Long> jobs = state.jobs().keyList();
                return new CompleteTransfer(jobs.get(random.nextInt(jobs.size())), random.nextInt(10) != 0);
            }
            if (roll < 34) {
                return new ResetCache();
            }
            if (roll < 36) {
                return new CompleteTransfer(random.nextInt(Math.max(1, (int) state.nextJobId() + 2)), true);
            }
            List<RequestState> requests = state.requests().values();
            RequestState request = requests.get(random.nextInt(requests.size()));
            return forRequest(request, roll);
        }

        private EngineCommand forRequest(RequestState request, int roll) {
            String id = request.requestId();
            switch (request.status()) {
                case WAITING, PREEMPTED -> {
                    if (request.pendingMatch() == null || random.nextInt(5) == 0) {
                        int blocks = request.numTokens() / config.gpuBlockSize();
                        return new MatchPrefix(id, random.nextInt(3) == 0 ? random.nextInt(blocks + 1) * config.gpuBlockSize() : 0);
                    }
                    int external = random.nextInt(6) == 0 ? 0 : request.pendingMatch().externalTokens();
                    return new AllocateBlocks(id, blocks(request.numTokens() / config.gpuBlockSize() + 1), external);
                }
                case RUNNING -> {
                    int pick = random.nextInt(100);
                    if (pick < 45) {
                        return new ComputeTokens(id, 1 + random.nextInt(2 * config.chunkTokens()));
                    }
                    if (pick < 55) {
                        return new AppendTokens(id, List.of(random.nextInt(50), random.nextInt(50)).subList(0, 1 + random.nextInt(2)));
                    }
                    if (pick < 62) {
                        return new RejectTokens(id, 1 + random.nextInt(3));
                    }
                    if (pick < 70) {
                        return new AllocateBlocks(id, blocks(2), 0);
                    }
                    if (pick < 80) {
                        return new PreemptRequest(id);
                    }
                    if (pick < 90) {
                        return new FinishRequest(id, random.nextBoolean() ? FinishReason.STOPPED : FinishReason.LENGTH);
                    }
                    return new AbortRequest(id);
                }
                default -> {
                    return new AbortRequest(id);
                }
            }
        }

        /** Prompts share prefixes (a few stems), so loads and held chunks happen. */
        private List<Integer> prompt() {
            List<Integer> tokens = new ArrayList<>();
            int stem = random.nextInt(3);
            int length = 1 + random.nextInt(6 * config.chunkTokens());
            for (int i = 0; i < length; i++) {
                tokens.add(i < length - 2 ? stem * 100 + i : random.nextInt(1000));
            }
            return tokens;
        }

        /** Block ids from a small pool, so freed and fenced blocks are handed out again. */
        private List<Integer> blocks(int max) {
            List<Integer> blocks = new ArrayList<>();
            int count = random.nextInt(max + 1);
            for (int i = 0; i < count; i++) {
                blocks.add(1 + random.nextInt(48));
            }
            return blocks;
        }
    }
}
