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
import io.kvledger.domain.command.FreeWindowBlocks;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.command.ResetCache;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.infrastructure.log.EventLogReader;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.log.LogLineEncoder;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Contract 7.8: a grouped log written by kvledger audits clean, whatever the program. Seeded random
 * command programs over the group shapes of examples 11-16 (full + sliding window, eagle, different
 * block sizes, the alignment skip, a lone sliding group), with window frees, null entries, loads,
 * preemption, aborts, finishes and resets, written as log lines and read back through the log decoder.
 */
class GroupedRandomWorkloadAuditTest {

    private static final int SEEDS = 40;
    private static final int COMMANDS = 250;

    private static final List<List<KvCacheGroup>> SHAPES = List.of(
            List.of(KvCacheGroup.full(4), KvCacheGroup.slidingWindow(4, 8)),
            List.of(KvCacheGroup.full(4), KvCacheGroup.full(4).asEagle()),
            List.of(KvCacheGroup.full(4).asEagle()),
            List.of(KvCacheGroup.full(8), KvCacheGroup.slidingWindow(4, 4)),
            List.of(KvCacheGroup.full(16), KvCacheGroup.slidingWindow(4, 8)),
            List.of(KvCacheGroup.slidingWindow(4, 8)),
            List.of(KvCacheGroup.full(4).asEagle(), KvCacheGroup.slidingWindow(8, 8)));

    @Test
    void everyGroupedProgramAuditsClean() throws Exception {
        Set<String> kinds = new TreeSet<>();
        for (long seed = 1; seed <= SEEDS; seed++) {
            Workload workload = new Workload(new Random(seed), SHAPES.get((int) (seed % SHAPES.size())));
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            LogLineEncoder encoder = new LogLineEncoder(bytes);
            try (KvLedger ledger = KvLedger.builder().config(workload.config()).build()) {
                encoder.write(ledger.configured());
                for (int i = 0; i < COMMANDS; i++) {
                    for (EngineEvent event : ledger.execute(workload.next(ledger.state())).events()) {
                        encoder.write(event);
                        kinds.add(event.getClass().getSimpleName());
                    }
                }
            }
            encoder.flush();
            Auditor auditor = new Auditor();
            List<Finding> violations = new ArrayList<>();
            EventLogReader reader = new EventLogReader(new ByteArrayInputStream(bytes.toByteArray()));
            for (LogEntry entry = reader.next(); entry != null; entry = reader.next()) {
                violations.addAll(auditor.check(entry.seq(), entry.event()));
            }
            violations.addAll(auditor.finish());
            assertEquals(List.of(), violations, "seed " + seed + " with " + workload.config());
        }
        // The programs must reach the grouped paths, or a clean audit proves little.
        assertTrue(kinds.containsAll(List.of("StoreJobScheduled", "LoadJobScheduled", "WindowBlocksFreed", "FlushRequired",
                "BlocksReleased", "StoreDeferred", "RequestPreempted", "CacheReset", "TokensRejected")), kinds.toString());
    }

    /** Mostly valid commands for the state at hand; rejected ones are part of a real log too. */
    private static final class Workload {

        private final Random random;
        private final EngineConfig config;
        private int registered;

        Workload(Random random, List<KvCacheGroup> groups) {
            this.random = random;
            this.config = EngineConfig.DEFAULTS.withCpuCapacityChunks(List.of(4, 8, 1024).get(random.nextInt(3)))
                    .withReleasePolicy(random.nextBoolean() ? ReleasePolicy.FENCE : ReleasePolicy.DELAY_FREE)
                    .withGroups(groups);
        }

        EngineConfig config() {
            return config;
        }

        EngineCommand next(EngineState state) {
            int roll = random.nextInt(100);
            if (roll < 10 || state.requests().isEmpty()) {
                return new RegisterRequest("r" + registered++, prompt());
            }
            if (roll < 30 && !state.jobs().isEmpty()) {
                List<Long> jobs = state.jobs().keyList();
                return new CompleteTransfer(jobs.get(random.nextInt(jobs.size())), random.nextInt(10) != 0);
            }
            if (roll < 31) {
                return new ResetCache();
            }
            List<RequestState> requests = state.requests().values();
            RequestState request = requests.get(random.nextInt(requests.size()));
            return forRequest(state, request);
        }

        private EngineCommand forRequest(EngineState state, RequestState request) {
            String id = request.requestId();
            switch (request.status()) {
                case WAITING, PREEMPTED -> {
                    if (request.pendingMatch() == null || random.nextInt(5) == 0) {
                        return new MatchPrefix(id, 0);
                    }
                    int external = random.nextInt(6) == 0 ? 0 : request.pendingMatch().externalTokens();
                    return new AllocateBlocks(id, blocks(state, request, request.numTokens() + config.gpuBlockSize(), external),
                            external);
                }
                case RUNNING -> {
                    int pick = random.nextInt(100);
                    if (pick < 35) {
                        return new ComputeTokens(id, 1 + random.nextInt(12));
                    }
                    if (pick < 45) {
                        return new AppendTokens(id, List.of(random.nextInt(50), random.nextInt(50)).subList(0, 1 + random.nextInt(2)));
                    }
                    if (pick < 52) {
                        return new RejectTokens(id, 1 + random.nextInt(3));
                    }
                    if (pick < 62) {
                        return new AllocateBlocks(id, blocks(state, request, request.numTokens() + 2 * config.gpuBlockSize(), 0), 0);
                    }
                    if (pick < 78) {
                        return free(request);
                    }
                    if (pick < 85) {
                        return new PreemptRequest(id);
                    }
                    if (pick < 93) {
                        return new FinishRequest(id, random.nextBoolean() ? FinishReason.STOPPED : FinishReason.LENGTH);
                    }
                    return new AbortRequest(id);
                }
                default -> {
                    return new AbortRequest(id);
                }
            }
        }

        /** Each group's table grown to cover {@code tokens}, nulls below the window, blocks no table holds (mostly). */
        private PerGroup<Integer> blocks(EngineState state, RequestState request, int tokens, int external) {
            Set<Integer> taken = new HashSet<>();
            List<List<Integer>> lists = new ArrayList<>();
            long reach = (long) request.computed() + external;
            for (int g = 0; g < config.groupCount(); g++) {
                KvCacheGroup group = config.group(g);
                int have = request.table(g).size();
                int want = Math.max(0, (tokens + group.blockSize() - 1) / group.blockSize() - have);
                int first = group.firstInWindow(reach);
                List<Integer> ids = new ArrayList<>();
                for (int i = 0; i < want; i++) {
                    if (group.isSliding() && have + i < first && random.nextBoolean()) {
                        ids.add(null);
                    } else {
                        ids.add(freeBlock(state, request, taken));
                    }
                }
                lists.add(ids);
            }
            return PerGroup.of(lists);
        }

        private int freeBlock(EngineState state, RequestState request, Set<Integer> taken) {
            for (int attempt = 0; attempt < 20; attempt++) {
                int block = 1 + random.nextInt(96);
                if (random.nextInt(30) == 0) {
                    return block; // now and then a block still held: a rejection the log records
                }
                if (!taken.contains(block) && state.windowHolders(block) == 0 && !holds(request, block)) {
                    taken.add(block);
                    return block;
                }
            }
            return 1 + random.nextInt(96);
        }

        private static boolean holds(RequestState request, int block) {
            for (int g = 0; g < request.tableCount(); g++) {
                if (request.table(g).contains(block)) {
                    return true;
                }
            }
            return false;
        }

        /** Frees some non-null sliding entries outside the window of {@code c}. */
        private EngineCommand free(RequestState request) {
            List<List<Integer>> lists = new ArrayList<>();
            for (int g = 0; g < config.groupCount(); g++) {
                KvCacheGroup group = config.group(g);
                List<Integer> ids = new ArrayList<>();
                if (group.isSliding()) {
                    int first = group.firstInWindow(request.computed() + (random.nextInt(8) == 0 ? group.blockSize() : 0));
                    for (int j = 0; j < Math.min(first, request.table(g).size()); j++) {
                        Integer block = request.table(g).get(j);
                        if (block != null && random.nextInt(3) != 0) {
                            ids.add(block);
                        }
                    }
                }
                lists.add(ids);
            }
            return new FreeWindowBlocks(request.requestId(), PerGroup.of(lists));
        }

        /** Prompts share prefixes (a few stems), so loads and held chunks happen. */
        private List<Integer> prompt() {
            List<Integer> tokens = new ArrayList<>();
            int stem = random.nextInt(3);
            int length = 1 + random.nextInt(40);
            for (int i = 0; i < length; i++) {
                tokens.add(i < length - 2 ? stem * 100 + i : random.nextInt(1000));
            }
            return tokens;
        }
    }
}
