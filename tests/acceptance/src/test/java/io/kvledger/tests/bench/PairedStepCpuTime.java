package io.kvledger.tests.bench;

import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.config.EngineConfig;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * Two builds of kvledger in one process, each in a class loader of its own, stepped in turn on the workload of
 * {@link GroupedStepCpuTime}: A and B one group, then A and B with {@code [FULL, SWA w]}, the first of each pair
 * alternating. A loaded machine slows both builds alike, so their ratio holds where two processes run minutes
 * apart do not. Prints the scheduler thread's CPU per step of each (after {@code steps/3} warm-up steps) and
 * B's against A's.
 *
 * <p>Run: {@code java -cp tests/acceptance/target/test-classes io.kvledger.tests.bench.PairedStepCpuTime steps
 * A CLASSPATH_A B CLASSPATH_B [requests] [window]}. Each class path holds that build's {@code kvledger.jar} and
 * test classes, then this build's test classes (for {@link Side} where the build has none).
 */
public final class PairedStepCpuTime {

    private PairedStepCpuTime() {
    }

    public static void main(String[] args) throws Exception {
        int steps = Integer.parseInt(args[0]);
        String[] tags = {args[1], args[3]};
        String[] classPaths = {args[2], args[4]};
        int requests = args.length > 5 ? Integer.parseInt(args[5]) : 256;
        int window = args.length > 6 ? Integer.parseInt(args[6]) : 128;
        ClassLoader[] loaders = new ClassLoader[2];
        LongSupplier[][] sides = new LongSupplier[2][2];
        for (int v = 0; v < 2; v++) {
            List<URL> urls = new ArrayList<>();
            for (String entry : classPaths[v].split(":")) {
                urls.add(Path.of(entry).toUri().toURL());
            }
            loaders[v] = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
            // Axon finds its handlers through the context class loader.
            Thread.currentThread().setContextClassLoader(loaders[v]);
            Class<?> side = loaders[v].loadClass(Side.class.getName());
            sides[v][0] = (LongSupplier) side.getConstructor(int.class, int.class).newInstance(requests, 0);
            sides[v][1] = (LongSupplier) side.getConstructor(int.class, int.class).newInstance(requests, window);
        }
        int warmUp = steps / 3;
        long[][][] micros = new long[2][2][steps - warmUp];
        for (int i = 0; i < steps; i++) {
            for (int k = 0; k < 2; k++) {
                for (int turn = 0; turn < 2; turn++) {
                    int v = i % 2 == 0 ? turn : 1 - turn;
                    Thread.currentThread().setContextClassLoader(loaders[v]);
                    long nanos = sides[v][k].getAsLong();
                    if (i >= warmUp) {
                        micros[v][k][i - warmUp] = nanos / 1000;
                    }
                }
            }
        }
        String[] workloads = {"one FULL group", "FULL + SWA w" + window};
        System.out.printf("%d requests, %d steps measured after %d warm-up steps, scheduler CPU us%n", requests,
                steps - warmUp, warmUp);
        for (int k = 0; k < 2; k++) {
            for (int v = 0; v < 2; v++) {
                long[] sorted = micros[v][k].clone();
                Arrays.sort(sorted);
                System.out.printf("%-12s %-16s mean %7.1f p50 %5d p99 %5d p99.9 %5d%n", tags[v], workloads[k],
                        mean(sorted), sorted[sorted.length / 2], sorted[(int) (sorted.length * 0.99)],
                        sorted[(int) (sorted.length * 0.999)]);
            }
        }
        for (int v = 0; v < 2; v++) {
            System.out.printf("%-12s grouped/one group: mean %.2f%n", tags[v], mean(micros[v][1]) / mean(micros[v][0]));
        }
        for (int k = 0; k < 2; k++) {
            long[] a = micros[0][k].clone();
            long[] b = micros[1][k].clone();
            Arrays.sort(a);
            Arrays.sort(b);
            System.out.printf("%s/%s %-16s mean %.3f p50 %.3f%n", tags[1], tags[0], workloads[k], mean(b) / mean(a),
                    (double) b[b.length / 2] / a[a.length / 2]);
        }
        System.exit(0); // the ledgers' Axon threads
    }

    private static double mean(long[] values) {
        return Arrays.stream(values).average().orElse(0);
    }

    /** One ledger and its workload, in the build's own class loader; each call is one step's CPU in ns. */
    public static final class Side implements LongSupplier {

        private final KvLedger ledger;
        private final DecodeWorkload workload;
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

        public Side(int requests, int window) {
            EngineConfig config = window == 0 ? EngineConfig.DEFAULTS : DecodeWorkload.groupedConfig(window);
            ledger = KvLedger.builder().store(LedgerStore.discarding()).config(config).build();
            workload = new DecodeWorkload(requests, window);
            workload.observe(ledger.step(workload.warmUp()).events());
        }

        @Override
        public long getAsLong() {
            var commands = workload.nextStep();
            long start = threads.getCurrentThreadCpuTime();
            StepResult result = ledger.step(commands);
            long cpu = threads.getCurrentThreadCpuTime() - start;
            workload.observe(result.events());
            return cpu;
        }
    }
}
