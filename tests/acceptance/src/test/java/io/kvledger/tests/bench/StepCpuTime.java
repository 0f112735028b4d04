package io.kvledger.tests.bench;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;
import io.kvledger.application.LedgerStore;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import org.HdrHistogram.Histogram;

/**
 * The scheduler thread's CPU time per step of the decode workload through the facade, without a
 * store and on the embedded file store, the two interleaved step by step in one process so that
 * both see the same machine load; mean and p99 from HdrHistogram. Thread CPU time is far less
 * disturbed by the other processes of a shared machine than wall time, which is printed too. The
 * store's writer thread (encoding, writing, forcing) is reported separately.
 *
 * <p>Run: {@code java -cp <test classpath> io.kvledger.tests.bench.StepCpuTime [requests] [steps] [store-file [fsync
 * [snapshot-every]]]}; without a store file only the unstored path is measured; {@code snapshot-every} is the store's
 * snapshot interval in events (its default, 25,000; 0: never), a due snapshot being encoded on the scheduler thread.
 * The first third of the steps warms up.
 */
public final class StepCpuTime {

    private StepCpuTime() {
    }

    public static void main(String[] args) {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
        Path storeFile = args.length > 2 ? Path.of(args[2]) : null;
        FsyncPolicy fsync = args.length > 3 ? FsyncPolicy.parse(args[3]) : FsyncPolicy.NEVER;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long snapshotEvery = args.length > 4 ? Long.parseLong(args[4]) : JsonlEventStorageEngine.DEFAULT_SNAPSHOT_EVERY;
        JsonlEventStorageEngine store = storeFile == null ? null : JsonlEventStorageEngine.open(storeFile, fsync, snapshotEvery);
        try (KvLedger unstored = KvLedger.builder().store(LedgerStore.discarding()).config(EngineConfig.DEFAULTS).build();
                KvLedger stored = store == null ? null : FileStores.builder(store).config(EngineConfig.DEFAULTS).build()) {
            Side bare = new Side("unstored", unstored, requests);
            Side file = stored == null ? null : new Side("store " + fsync + " snap " + snapshotEvery, stored, requests);
            int warmUp = steps / 3;
            long writerBefore = 0;
            for (int i = 0; i < steps; i++) {
                if (i == warmUp) {
                    bare.reset();
                    if (file != null) {
                        file.reset();
                        writerBefore = threads.getThreadCpuTime(store.writerThread().getId());
                    }
                }
                bare.step(threads);
                if (file != null) {
                    file.step(threads);
                }
            }
            int counted = steps - warmUp;
            System.out.printf("%d requests, %d steps measured after %d warm-up steps, %.0f events per step%n",
                    requests, counted, warmUp, (double) bare.events / counted);
            bare.print();
            if (file != null) {
                file.print();
                double writer = (threads.getThreadCpuTime(store.writerThread().getId()) - writerBefore) / 1000.0 / counted;
                System.out.printf("store writer thread: %.1f us CPU per step%n", writer);
                System.out.printf("scheduler CPU ratio store/unstored: mean %.2f, p99 %.2f%n",
                        file.cpu.getMean() / bare.cpu.getMean(),
                        (double) file.cpu.getValueAtPercentile(99) / bare.cpu.getValueAtPercentile(99));
            }
        }
    }

    static final class Side {
        final String name;
        final KvLedger ledger;
        final DecodeWorkload workload;
        final Histogram cpu = new Histogram(60_000_000L, 3);
        final Histogram wall = new Histogram(60_000_000L, 3);
        long events;
        long rejections;

        Side(String name, KvLedger ledger, int requests) {
            this(name, ledger, new DecodeWorkload(requests));
        }

        Side(String name, KvLedger ledger, DecodeWorkload workload) {
            this.name = name;
            this.ledger = ledger;
            this.workload = workload;
            workload.observe(ledger.step(workload.warmUp()).events());
        }

        void step(ThreadMXBean threads) {
            var commands = workload.nextStep();
            long cpuStart = threads.getCurrentThreadCpuTime();
            long wallStart = System.nanoTime();
            StepResult result = ledger.step(commands);
            long wallEnd = System.nanoTime();
            long cpuEnd = threads.getCurrentThreadCpuTime();
            workload.observe(result.events());
            events += result.events().size();
            rejections += result.rejections().size();
            cpu.recordValue(Math.max(1, (cpuEnd - cpuStart) / 1000));
            wall.recordValue(Math.max(1, (wallEnd - wallStart) / 1000));
        }

        void reset() {
            cpu.reset();
            wall.reset();
            events = 0;
        }

        void print() {
            System.out.printf("%-16s scheduler CPU us: mean %.1f p50 %d p99 %d p99.9 %d max %d | wall us: mean %.1f p99 %d%n",
                    name, cpu.getMean(), cpu.getValueAtPercentile(50), cpu.getValueAtPercentile(99),
                    cpu.getValueAtPercentile(99.9), cpu.getMaxValue(),
                    wall.getMean(), wall.getValueAtPercentile(99));
        }
    }
}
