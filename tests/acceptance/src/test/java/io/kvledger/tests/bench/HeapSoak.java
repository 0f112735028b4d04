package io.kvledger.tests.bench;

import io.kvledger.application.KvLedger;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.application.LedgerStore;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Heap after many requests through the facade: each step registers, prefills and finishes
 * {@code perStep} short requests (16-token prompts, one block, stores completed never: the tier's LRU
 * evicts), so requests pass as fast as the engine takes them. Prints the used heap after a full GC
 * every {@code report} requests, and the heap per live request from a second run that keeps
 * {@code live} requests registered.
 *
 * <p>Run: {@code java -Xmx1g -cp CP io.kvledger.tests.bench.HeapSoak [requests] [perStep] [report] [live]}.
 */
public final class HeapSoak {

    private HeapSoak() {
    }

    public static void main(String[] args) {
        long requests = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        int perStep = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        long report = args.length > 2 ? Long.parseLong(args[2]) : 1_000_000L;
        int live = args.length > 3 ? Integer.parseInt(args[3]) : 10_000;
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        EngineConfig config = EngineConfig.DEFAULTS.withGpuBlockSize(16);
        long start = System.nanoTime();
        try (KvLedger ledger = KvLedger.builder().store(LedgerStore.discarding()).config(config).build()) {
            long done = 0;
            long nextReport = report;
            List<Integer> prompt = IntStream.range(0, 16).boxed().toList();
            while (done < requests) {
                List<EngineCommand> step = new ArrayList<>(perStep * 5);
                for (int i = 0; i < perStep; i++) {
                    String id = "req-" + (done + i);
                    step.add(new RegisterRequest(id, prompt));
                    step.add(new MatchPrefix(id, 0));
                    step.add(new AllocateBlocks(id, List.of(i), 0));
                    step.add(new ComputeTokens(id, 16));
                    step.add(new FinishRequest(id, FinishReason.STOPPED));
                }
                ledger.step(step);
                done += perStep;
                if (done >= nextReport) {
                    System.gc();
                    System.out.printf("%,d requests: heap used after GC %.1f MB; live requests %d, retired remembered %d,"
                                    + " forgotten %,d; %.0f s%n", done, memory.getHeapMemoryUsage().getUsed() / 1e6,
                            ledger.state().requests().size(), ledger.state().retired().size(),
                            ledger.state().retired().forgotten(), (System.nanoTime() - start) / 1e9);
                    nextReport += report;
                }
            }
        }
        perLiveRequest(config, live, memory);
    }

    /** Heap of {@code live} registered, allocated, computed requests, per request. */
    private static void perLiveRequest(EngineConfig config, int live, MemoryMXBean memory) {
        try (KvLedger ledger = KvLedger.builder().store(LedgerStore.discarding()).config(config).build()) {
            System.gc();
            long before = memory.getHeapMemoryUsage().getUsed();
            List<Integer> prompt = IntStream.range(0, 64).boxed().toList();
            List<EngineCommand> step = new ArrayList<>();
            for (int i = 0; i < live; i++) {
                String id = "live-" + i;
                step.add(new RegisterRequest(id, prompt));
                step.add(new MatchPrefix(id, 0));
                step.add(new AllocateBlocks(id, List.of(4 * i, 4 * i + 1, 4 * i + 2, 4 * i + 3), 0));
                step.add(new ComputeTokens(id, 32));
                if (step.size() > 2_000) {
                    ledger.step(step);
                    step = new ArrayList<>();
                }
            }
            ledger.step(step);
            System.gc();
            long after = memory.getHeapMemoryUsage().getUsed();
            System.out.printf("%d live requests (64-token prompts, 4 blocks, 32 tokens computed): %.0f bytes per live request"
                    + " (heap %.1f MB -> %.1f MB)%n", ledger.state().requests().size(),
                    (after - before) / (double) ledger.state().requests().size(), before / 1e6, after / 1e6);
        }
    }
}
