package io.kvledger.tests.bench;

import io.kvledger.infrastructure.fleet.FleetNode;
import io.kvledger.infrastructure.fleet.FleetQueries;
import io.kvledger.infrastructure.fleet.FleetSchema;
import io.kvledger.infrastructure.store.jdbc.LocalPostgres;
import io.kvledger.infrastructure.store.jdbc.PostgresStore;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code kvledger fleet node} as users run it (through the launcher, with its defaults, a JVM of its own)
 * against the harness's node ({@link FleetNode} in this JVM, as {@link PostgresFleetBenchmark} runs it), in
 * one run, on one database filled by the benchmark: each catches up with every stored event on a view of
 * its own, in turns (command, harness, command, ...). For the command it reports the child's CPU by
 * thread (processor, JIT compilers, GC, the rest: Linux's {@code /proc}); for the harness its processor
 * threads' CPU. Then the command's node follows four engines writing flat out: how far behind, and the lag
 * after the last append. Wall-clock rates depend on what else runs: give the load with them.
 *
 * <p>Run from the checkout's root after {@code mvn -B -q package -DskipTests} and the acceptance tests'
 * {@code test-compile}: {@code java -Xms2g -Xmx2g -cp
 * infrastructure/cli/target/kvledger.jar:tests/acceptance/target/test-classes
 * io.kvledger.tests.bench.FleetNodeCommandBenchmark [steps] [rounds] [jdbc-url]}. An empty database is first
 * filled as {@code PostgresFleetBenchmark} fills it (one engine, then four at once, {@code steps} steps
 * each, 300 by default: about 1.6 M events); without a URL a throwaway server is started.
 * {@code -Dkvledger.launcher=PATH} names the launcher ({@code ./kvledger}); extra {@code -Dkvledger.nodeArgs}
 * are passed to {@code fleet node} (for instance {@code --no-audit}); {@code -Dkvledger.pgPort} chooses the throwaway
 * server's port (51250), {@code -Dkvledger.skipFollow=true} leaves out the following part. The command's rate is
 * also given after its first 10 s (start-up and compilation behind it).
 */
public final class FleetNodeCommandBenchmark {

    private FleetNodeCommandBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        LocalPostgres server = args.length > 2 ? null : LocalPostgres.start(Integer.getInteger("kvledger.pgPort", 51250), List.of());
        String url;
        if (server != null) {
            server.createDatabase("bench");
            url = server.jdbcUrl("bench");
        } else {
            url = args[2];
        }
        String run = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        try (PostgresStore store = PostgresStore.open(url, 4)) {
            if (store.engineIds().isEmpty()) {
                PostgresFleetBenchmark.append(store, List.of("one"), steps);
                PostgresFleetBenchmark.append(store, List.of("four-0", "four-1", "four-2", "four-3"), steps);
            }
            for (int round = 1; round <= rounds; round++) {
                command(url, store, "cmd_" + run + "_" + round);
                harness(url, store, "harness_" + run + "_" + round);
            }
            if (!Boolean.getBoolean("kvledger.skipFollow")) {
                follow(url, store, "follow_" + run, "follow-" + run, steps);
            }
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    /** The harness: one node (four segments, defaults) in this JVM building a new view from every stored event. */
    private static void harness(String url, PostgresStore store, String view) throws Exception {
        FleetQueries queries = new FleetQueries(store, view);
        long start = System.nanoTime();
        long cpu;
        double seconds;
        try (PostgresStore own = PostgresStore.open(url, 6); FleetNode node = startHarnessNode(own, view)) {
            awaitCaughtUp(queries);
            seconds = (System.nanoTime() - start) / 1e9; // caught up: the node's shutdown is not its catch-up
            cpu = PostgresFleetBenchmark.processorCpuNanos(view);
        }
        long events = seen(store, view);
        System.out.printf("harness (FleetNode in this JVM, view %s): %,d events in %.2f s: %,.0f events/s;"
                + " processor threads %.2f s of CPU (%.2f us per event); load %s%n",
                view, events, seconds, events / seconds, cpu / 1e9, cpu / 1e3 / events, load());
    }

    private static FleetNode startHarnessNode(PostgresStore own, String view) {
        FleetNode.Settings settings = FleetNode.Settings.of(4);
        return FleetNode.start(own, view, "node-" + view, nodeArgs().contains("--no-audit") ? settings.withoutAudit() : settings);
    }

    /** The product: {@code kvledger fleet node} through the launcher building a new view from every stored event. */
    private static void command(String url, PostgresStore store, String view) throws Exception {
        FleetQueries queries = new FleetQueries(store, view);
        long start = System.nanoTime();
        Process node = startCommandNode(url, view);
        Map<String, Double> cpu;
        long[] tenSeconds;
        long end;
        try {
            tenSeconds = awaitCaughtUpNoting(store, queries, view, start, node.pid());
            end = System.nanoTime(); // caught up: the node's shutdown is not its catch-up
            cpu = threadCpuSeconds(node.pid());
        } finally {
            stop(node);
        }
        double seconds = (end - start) / 1e9;
        long events = seen(store, view);
        double total = cpu.values().stream().mapToDouble(Double::doubleValue).sum();
        System.out.printf("command (kvledger fleet node %s, view %s): %,d events in %.2f s: %,.0f events/s;"
                + " the process %.2f s of CPU (%.2f us per event), by thread %s; load %s%n",
                String.join(" ", nodeArgs()), view, events, seconds, events / seconds, total, total * 1e6 / events, cpu, load());
        if (tenSeconds != null) {
            double after = (end - tenSeconds[0]) / 1e9;
            long eventsAfter = events - tenSeconds[1];
            double cpuAfter = total - tenSeconds[2] / 1e3;
            System.out.printf("  after its first 10 s (%,d events seen by then): %,d events in %.2f s: %,.0f events/s;"
                    + " %.2f s of the process's CPU (%.2f us per event)%n",
                    tenSeconds[1], eventsAfter, after, eventsAfter / after, cpuAfter, cpuAfter * 1e6 / Math.max(1, eventsAfter));
        } else {
            System.out.println("  caught up within its first 10 s");
        }
    }

    /**
     * As {@link #awaitCaughtUp}, noting when the node has run 10 s: [that time, the events seen then, the
     * process's CPU then in ms]; {@code null} when it caught up sooner.
     */
    private static long[] awaitCaughtUpNoting(PostgresStore store, FleetQueries queries, String view, long start, long pid)
            throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(20).toNanos();
        long[] tenSeconds = null;
        while (!queries.caughtUp()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the view did not catch up in 20 minutes");
            }
            if (tenSeconds == null && System.nanoTime() - start >= Duration.ofSeconds(10).toNanos()) {
                long now = System.nanoTime();
                double cpu = threadCpuSeconds(pid).values().stream().mapToDouble(Double::doubleValue).sum();
                tenSeconds = new long[] {now, seen(store, view), Math.round(cpu * 1e3)};
            }
            Thread.sleep(20);
        }
        return tenSeconds;
    }

    /**
     * The command's node catches up on a new view, then four new engines write flat out while it follows:
     * steps behind every 250 ms while they write, and how long after the last append the view has caught up.
     */
    private static void follow(String url, PostgresStore store, String view, String engines, int steps) throws Exception {
        FleetQueries queries = new FleetQueries(store, view);
        Process node = startCommandNode(url, view);
        try {
            awaitCaughtUp(queries);
            PostgresFleetBenchmark.Followed following = PostgresFleetBenchmark.appendWhileSampling(store, queries, engines, steps);
            PostgresFleetBenchmark.Rate written = following.written();
            long end = System.nanoTime();
            long atEnd = PostgresFleetBenchmark.stepsBehind(queries);
            awaitCaughtUp(queries);
            System.out.printf("four engines writing, the command's node following: %,.0f events/s appended in %.2f s;"
                    + " steps behind every 250 ms %s; %,d steps behind at the last append, caught up %.3f s after it; load %s%n",
                    written.events() / written.seconds(), written.seconds(), following.behind(), atEnd, (System.nanoTime() - end) / 1e9, load());
        } finally {
            stop(node);
        }
    }

    private static Process startCommandNode(String url, String view) throws IOException {
        List<String> command = new ArrayList<>(List.of(System.getProperty("kvledger.launcher", "./kvledger"),
                "fleet", "node", "--store", url, "--view", view, "--node", "node-" + view));
        command.addAll(nodeArgs());
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(new File(System.getProperty("java.io.tmpdir"), "kvledger-" + view + ".log"));
        builder.environment().remove("KVLEDGER_JAVA_OPTS"); // the defaults, unless -Dkvledger.javaOpts says otherwise
        String opts = System.getProperty("kvledger.javaOpts");
        if (opts != null) {
            builder.environment().put("KVLEDGER_JAVA_OPTS", opts);
        }
        return builder.start();
    }

    private static List<String> nodeArgs() {
        String extra = System.getProperty("kvledger.nodeArgs", "").trim();
        return extra.isEmpty() ? List.of() : List.of(extra.split("\\s+"));
    }

    private static void stop(Process node) throws InterruptedException {
        node.destroy(); // SIGTERM: the node releases its claims
        if (!node.waitFor(30, TimeUnit.SECONDS)) {
            node.destroyForcibly().waitFor();
        }
    }

    private static void awaitCaughtUp(FleetQueries queries) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(20).toNanos();
        while (!queries.caughtUp()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the view did not catch up in 20 minutes");
            }
            Thread.sleep(20);
        }
    }

    /**
     * The domain events the view has applied, from its own counters: while the node catches up,
     * {@link FleetQueries#progress()} would read the payloads it has not applied yet (the stored count), taking the
     * database's CPU from the node measured here.
     */
    private static long seen(PostgresStore store, String view) throws Exception {
        try (var c = store.dataSource().getConnection(); var q = c.prepareStatement(
                "SELECT coalesce(sum(events), 0) FROM " + new FleetSchema(view).engine()); var r = q.executeQuery()) {
            r.next();
            return r.getLong(1);
        }
    }

    /**
     * CPU seconds of a process's live threads, grouped: the processor (coordinator and workers), the JIT's
     * compiler threads, the collector's, and the rest. Linux only ({@code /proc/PID/task}).
     */
    static Map<String, Double> threadCpuSeconds(long pid) throws IOException {
        Map<String, Double> seconds = new TreeMap<>();
        double tick = 100.0; // USER_HZ on Linux
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String stat;
                String name;
                try {
                    stat = Files.readString(task.resolve("stat"));
                    name = Files.readString(task.resolve("comm")).trim();
                } catch (IOException gone) {
                    continue; // the thread ended
                }
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                double cpu = (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / tick;
                seconds.merge(group(name), cpu, Double::sum);
            }
        }
        return seconds;
    }

    private static String group(String thread) {
        if (thread.startsWith("WorkPackage") || thread.startsWith("Coordinator")) {
            return "processor";
        }
        if (thread.startsWith("C1 Compiler") || thread.startsWith("C2 Compiler")) {
            return thread.substring(0, 2) + " JIT";
        }
        if (thread.startsWith("GC ") || thread.startsWith("G1 ")) {
            return "GC";
        }
        return "other";
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).substring(0, 14).trim();
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }
}
