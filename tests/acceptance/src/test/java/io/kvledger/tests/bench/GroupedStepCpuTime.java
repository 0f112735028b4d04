package io.kvledger.tests.bench;

import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.domain.config.EngineConfig;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The scheduler thread's CPU time per decode step with KV cache groups {@code [FULL B16, SWA B16 w]}
 * (the host freeing window blocks as they leave the window) against the same workload on one group,
 * interleaved step by step in one process, without a store.
 *
 * <p>Run: {@code java -cp <test classpath> io.kvledger.tests.bench.GroupedStepCpuTime [requests] [steps] [window]}.
 */
public final class GroupedStepCpuTime {

    private GroupedStepCpuTime() {
    }

    public static void main(String[] args) {
        int requests = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 5000;
        int window = args.length > 2 ? Integer.parseInt(args[2]) : 128;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        EngineConfig one = EngineConfig.DEFAULTS;
        try (KvLedger single = KvLedger.builder().store(LedgerStore.discarding()).config(one).build();
             KvLedger grouped = KvLedger.builder().store(LedgerStore.discarding()).config(DecodeWorkload.groupedConfig(window)).build()) {
            StepCpuTime.Side bare = new StepCpuTime.Side("one FULL group", single, new DecodeWorkload(requests));
            StepCpuTime.Side groups = new StepCpuTime.Side("FULL + SWA w" + window, grouped, new DecodeWorkload(requests, window));
            int warmUp = steps / 3;
            for (int i = 0; i < steps; i++) {
                if (i == warmUp) {
                    bare.reset();
                    groups.reset();
                }
                bare.step(threads);
                groups.step(threads);
            }
            int counted = steps - warmUp;
            System.out.printf("%d requests, %d steps measured after %d warm-up steps; events per step: %.0f one group, %.0f grouped%n",
                    requests, counted, warmUp, (double) bare.events / counted, (double) groups.events / counted);
            bare.print();
            groups.print();
            System.out.printf("rejections: %d one group, %d grouped%n", bare.rejections, groups.rejections);
            System.out.printf("scheduler CPU ratio grouped/one group: mean %.2f, p99 %.2f%n",
                    groups.cpu.getMean() / bare.cpu.getMean(),
                    (double) groups.cpu.getValueAtPercentile(99) / bare.cpu.getValueAtPercentile(99));
        }
    }
}
