package io.kvledger.tests.bench;

import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.HdrHistogram.Histogram;

/**
 * The WALL time of a step of the decode workload as the host sees it (the call to {@code step}),
 * without a store and on the embedded file store under {@code never}, {@code interval:100} and
 * {@code always}, plus a host that pipelines under {@code always} ({@code stepAsync}, acting on each
 * step once its future completes): all interleaved step by step in one process, so that every side
 * sees the same machine load. Mean, p50 and p99 from HdrHistogram; the scheduler thread's CPU, the
 * store writer's CPU and the forces per step beside them.
 *
 * <p>Run: {@code java -cp <test classpath> io.kvledger.tests.bench.StepWallTime [requests] [steps] [store-dir] [sides]},
 * {@code sides} a comma-separated choice of {@code never}, {@code interval}, {@code always}, {@code async}
 * (all by default; the unstored side always runs). Every stored side adds a writer thread that competes
 * for the cores: on a small machine compare one stored side with the unstored one. The first third of
 * the steps warms up.
 */
public final class StepWallTime {

    private StepWallTime() {
    }

    public static void main(String[] args) throws Exception {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 3000;
        Path dir = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("step-wall-time");
        Files.createDirectories(dir);
        List<String> chosen = List.of((args.length > 3 ? args[3] : "never,interval,always,async").split(","));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        List<Side> sides = new ArrayList<>();
        try {
            sides.add(new Side("unstored", null, false, requests, dir));
            if (chosen.contains("never")) {
                sides.add(new Side("store never", FsyncPolicy.NEVER, false, requests, dir));
            }
            if (chosen.contains("interval")) {
                sides.add(new Side("store interval:100", FsyncPolicy.parse("interval:100"), false, requests, dir));
            }
            if (chosen.contains("always")) {
                sides.add(new Side("store always", FsyncPolicy.ALWAYS, false, requests, dir));
            }
            if (chosen.contains("async")) {
                sides.add(new Side("always, stepAsync", FsyncPolicy.ALWAYS, true, requests, dir));
            }
            int warmUp = steps / 3;
            for (int i = 0; i < steps; i++) {
                if (i == warmUp) {
                    sides.forEach(side -> side.reset(threads));
                }
                for (Side side : sides) {
                    side.step(threads);
                }
            }
            for (Side side : sides) {
                side.finish();
            }
            int counted = steps - warmUp;
            System.out.printf("%d requests, %d steps measured after %d warm-up steps, %.0f events per step%n",
                    requests, counted, warmUp, (double) sides.get(0).events / counted);
            Side bare = sides.get(0);
            for (Side side : sides) {
                side.print(threads, counted, bare);
            }
        } finally {
            for (Side side : sides) {
                side.ledger.close();
            }
        }
    }

    private static final class Side {
        final String name;
        final KvLedger ledger;
        final JsonlEventStorageEngine store;
        final boolean pipelined;
        final DecodeWorkload workload;
        final ArrayDeque<CompletableFuture<StepResult>> pending = new ArrayDeque<>();
        final Histogram cpu = new Histogram(60_000_000L, 3);
        final Histogram wall = new Histogram(60_000_000L, 3);
        long events;
        long writerBefore;
        long forcesBefore;

        Side(String name, FsyncPolicy fsync, boolean pipelined, int requests, Path dir) throws Exception {
            this.name = name;
            this.pipelined = pipelined;
            if (fsync == null) {
                this.store = null;
                this.ledger = KvLedger.builder().store(LedgerStore.discarding()).config(EngineConfig.DEFAULTS).build();
            } else {
                Path file = dir.resolve(name.replaceAll("[^a-z0-9]+", "-") + ".jsonl");
                Files.deleteIfExists(file);
                Files.deleteIfExists(Path.of(file + ".snapshot"));
                this.store = JsonlEventStorageEngine.open(file, fsync);
                this.ledger = FileStores.builder(store).config(EngineConfig.DEFAULTS).build();
            }
            this.workload = new DecodeWorkload(requests);
            workload.observe(ledger.step(workload.warmUp()).events());
        }

        void step(ThreadMXBean threads) {
            if (pipelined) {
                // The host acts on a step once it is stored: the futures completed so far, in order.
                while (!pending.isEmpty() && pending.peek().isDone()) {
                    observe(pending.poll().join());
                }
            }
            var commands = workload.nextStep();
            long cpuStart = threads.getCurrentThreadCpuTime();
            long wallStart = System.nanoTime();
            if (pipelined) {
                pending.add(ledger.stepAsync(commands));
            } else {
                observe(ledger.step(commands));
            }
            long wallEnd = System.nanoTime();
            long cpuEnd = threads.getCurrentThreadCpuTime();
            cpu.recordValue(Math.max(1, (cpuEnd - cpuStart) / 1000));
            wall.recordValue(Math.max(1, (wallEnd - wallStart) / 1000));
        }

        private void observe(StepResult result) {
            workload.observe(result.events());
            events += result.events().size();
        }

        void finish() {
            while (!pending.isEmpty()) {
                observe(pending.poll().join());
            }
        }

        void reset(ThreadMXBean threads) {
            cpu.reset();
            wall.reset();
            events = 0;
            if (store != null) {
                writerBefore = threads.getThreadCpuTime(store.writerThread().getId());
                forcesBefore = store.forces();
            }
        }

        void print(ThreadMXBean threads, int counted, Side bare) {
            String store = "";
            if (this.store != null) {
                double writer = (threads.getThreadCpuTime(this.store.writerThread().getId()) - writerBefore) / 1000.0 / counted;
                store = String.format(" | writer CPU %.0f us/step, %.3f forces/step", writer,
                        (double) (this.store.forces() - forcesBefore) / counted);
            }
            System.out.printf("%-19s wall us: mean %7.1f p50 %6d p99 %6d (x%.2f mean, x%.2f p50 of unstored) | scheduler CPU mean %.1f%s%n",
                    name, wall.getMean(), wall.getValueAtPercentile(50), wall.getValueAtPercentile(99),
                    wall.getMean() / bare.wall.getMean(),
                    (double) wall.getValueAtPercentile(50) / bare.wall.getValueAtPercentile(50), cpu.getMean(), store);
        }
    }
}
