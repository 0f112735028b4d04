package io.kvledger.tests.bench;

import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.config.EngineConfig;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import io.kvledger.infrastructure.store.FileStores;
import io.kvledger.infrastructure.store.FsyncPolicy;
import io.kvledger.infrastructure.store.JsonlEventStorageEngine;

/**
 * Thread CPU time per step of the decode workload, through the facade. A quick guide while the
 * machine is busy (CPU time is far less disturbed by other processes than wall time); the figures
 * of record come from {@link StepBenchmark} on an idle machine.
 *
 * <p>Run: {@code java -cp <test classpath> io.kvledger.tests.bench.StepCpuTime [requests] [steps] [store-file]};
 * with a store file, the embedded JSONL store (fsync never) is measured too.
 */
public final class StepCpuTime {

    private StepCpuTime() {
    }

    public static void main(String[] args) {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        KvLedger.Builder builder = args.length > 2
                ? FileStores.builder(JsonlEventStorageEngine.open(Path.of(args[2]), FsyncPolicy.NEVER))
                : KvLedger.builder().store(LedgerStore.discarding());
        try (KvLedger ledger = builder.config(EngineConfig.DEFAULTS).build()) {
            DecodeWorkload workload = new DecodeWorkload(requests);
            workload.observe(ledger.step(workload.warmUp()).events());
            long events = 0;
            for (int round = 0; round < 3; round++) {
                long start = threads.getCurrentThreadCpuTime();
                events = 0;
                for (int i = 0; i < steps; i++) {
                    StepResult result = ledger.step(workload.nextStep());
                    workload.observe(result.events());
                    events += result.events().size();
                }
                double perStep = (threads.getCurrentThreadCpuTime() - start) / 1000.0 / steps;
                System.out.printf("round %d: %.1f us CPU per step of %d requests (%.0f events per step)%n",
                        round, perStep, requests, (double) events / steps);
            }
        }
    }
}
