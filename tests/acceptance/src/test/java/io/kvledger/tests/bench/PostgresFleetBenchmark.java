package io.kvledger.tests.bench;

import io.kvledger.application.EngineConflictException;
import io.kvledger.application.KvLedger;
import io.kvledger.application.audit.Auditor;
import io.kvledger.application.engine.StepEvents;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.fleet.FleetNode;
import io.kvledger.infrastructure.fleet.FleetQueries;
import io.kvledger.infrastructure.store.jdbc.LocalPostgres;
import io.kvledger.infrastructure.store.jdbc.PostgresStore;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * The decode workload appended to PostgreSQL through the facade (each step one transaction): one engine,
 * then four at once; then one processing node building a view from the full store (its apply rate; again
 * without the audit, the ceiling of everything around it),
 * two nodes doing the same, and four engines writing flat out with the two nodes following them (with
 * the audit, then without), how far behind they are while the engines write and the lag at the end.
 * Wall-clock figures: run it on a machine as quiet as you can get and say how loaded it was. Its nodes run
 * in a JVM the appends and the audit alone have warmed (C2 has compiled the hot paths), and their CPU is
 * the processor threads' only: a warm node's cost. {@link FleetNodeCommandBenchmark} measures the command
 * users run, a fresh JVM, against it.
 *
 * <p>Run: {@code java -Xms2g -Xmx2g -cp <test classpath> io.kvledger.tests.bench.PostgresFleetBenchmark
 * [steps] [jdbc-url]}; without a URL it starts a throwaway server (fsync on, the default settings).
 */
public final class PostgresFleetBenchmark {

    private static final int REQUESTS = 256;

    private PostgresFleetBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        LocalPostgres server = args.length > 1 ? null : LocalPostgres.start(51250, List.of());
        String url;
        if (server != null) {
            server.createDatabase("bench");
            url = server.jdbcUrl("bench");
        } else {
            url = args[1];
        }
        try (PostgresStore store = PostgresStore.open(url, 10)) {
            Rate one = append(store, List.of("one"), steps);
            System.out.printf("one engine: %,d steps, %,d domain events in %.2f s: %,.0f events/s, %.2f ms per step, %d conflicts%n",
                    one.steps, one.events, one.seconds, one.events / one.seconds, one.seconds * 1000 / one.steps, one.conflicts);
            Rate four = append(store, List.of("four-0", "four-1", "four-2", "four-3"), steps);
            System.out.printf("four engines at once: %,d steps, %,d domain events in %.2f s: %,.0f events/s, %d conflicts%n",
                    four.steps, four.events, four.seconds, four.events / four.seconds, four.conflicts);
            auditAlone(store, "four-0");
            catchUp(url, store, "solo", own -> FleetNode.start(own, "solo", "node-solo", 4));
            catchUp(url, store, "unaudited", own -> FleetNode.start(own, "unaudited", "node-unaudited",
                    FleetNode.Settings.of(4).withoutAudit()));
            follow(url, store, "bench", FleetNode.Settings.of(4), "fleet", steps);
            follow(url, store, "free", FleetNode.Settings.of(4).withoutAudit(), "free", steps);
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    /**
     * Two nodes of a new view catch up with the store, then four new engines write flat out while they
     * follow: how far behind the view is, sampled every 250 ms while the engines write, and how long after
     * the last append it has caught up.
     */
    private static void follow(String url, PostgresStore store, String view, FleetNode.Settings settings, String engines,
                               int steps) throws Exception {
        try (PostgresStore a = PostgresStore.open(url, 6); PostgresStore b = PostgresStore.open(url, 6);
             FleetNode nodeA = FleetNode.start(a, view, "node-a", settings);
             FleetNode nodeB = FleetNode.start(b, view, "node-b", settings)) {
            FleetQueries queries = new FleetQueries(store, view);
            long catchUp = System.nanoTime();
            while (!queries.caughtUp()) {
                Thread.sleep(100);
            }
            long stored = queries.progress().stream().mapToLong(FleetQueries.EngineProgress::stored).sum();
            double seconds = (System.nanoTime() - catchUp) / 1e9;
            System.out.printf("two nodes (view %s, audit %s) caught up with the %,d stored events in %.2f s: %,.0f events/s%n",
                    view, settings.audit(), stored, seconds, stored / seconds);
            Followed following = appendWhileSampling(store, queries, engines, steps);
            Rate followed = following.written();
            List<Long> behindSamples = following.behind();
            long end = System.nanoTime();
            long behind = stepsBehind(queries);
            while (!queries.caughtUp()) {
                Thread.sleep(10);
            }
            System.out.printf("four engines writing, two nodes (audit %s) following: %,.0f events/s appended in %.2f s;"
                    + " steps behind every 250 ms while they wrote %s; at the end %,d steps (~%,d events) behind,"
                    + " caught up %.3f s after the last append (segments %s / %s)%n",
                    settings.audit(), followed.events / followed.seconds, followed.seconds, behindSamples, behind,
                    behind * followed.events / followed.steps, (System.nanoTime() - end) / 1e9,
                    nodeA.claimedSegments(), nodeB.claimedSegments());
        }
    }

    /** What four new engines wrote flat out, and how many steps the view was behind every 250 ms meanwhile. */
    record Followed(Rate written, List<Long> behind) {
    }

    static Followed appendWhileSampling(PostgresStore store, FleetQueries queries, String engines, int steps) throws Exception {
        List<Long> behind = new java.util.concurrent.CopyOnWriteArrayList<>();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        sampler.scheduleAtFixedRate(() -> {
            try {
                behind.add(stepsBehind(queries));
            } catch (Exception e) {
                // a missed sample
            }
        }, 250, 250, TimeUnit.MILLISECONDS);
        try {
            return new Followed(append(store, List.of(engines + "-0", engines + "-1", engines + "-2", engines + "-3"), steps), behind);
        } finally {
            sampler.shutdownNow();
        }
    }

    static long stepsBehind(FleetQueries queries) throws java.sql.SQLException {
        return queries.messagesBehind().values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * The continuous audit's own cost: one engine's stored events, read into memory first, through one
     * {@link Auditor} on this thread, no database; the second of two rounds (the first warms the JIT).
     */
    private static void auditAlone(PostgresStore store, String engineId) {
        List<EngineEvent> events = new ArrayList<>();
        store.engine().readEvents(engineId, 0).asStream()
                .forEach(message -> events.addAll(((StepEvents) message.getPayload()).events()));
        for (int round = 1; round <= 2; round++) {
            Auditor auditor = new Auditor();
            long start = System.nanoTime();
            long cpuStart = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
            long seq = 0;
            long findings = 0;
            for (EngineEvent event : events) {
                findings += auditor.check(++seq, event).size();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpu = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - cpuStart) / 1e9;
            if (round == 2) {
                System.out.printf("the audit alone (one thread, engine %s, in memory): %,d events in %.2f s: %,.0f events/s;"
                        + " %.2f s of CPU, %.2f us per event (%,.0f events/s per core), %d findings%n", engineId, events.size(),
                        seconds, events.size() / seconds, cpu, cpu * 1e6 / events.size(), events.size() / cpu, findings);
            }
        }
    }

    /** One node (four segments) building a new view from every stored event: the node's apply rate. */
    private static void catchUp(String url, PostgresStore store, String view, Function<PostgresStore, FleetNode> startNode)
            throws Exception {
        FleetQueries queries = new FleetQueries(store, view);
        long start = System.nanoTime();
        long cpu;
        double seconds;
        try (PostgresStore own = PostgresStore.open(url, 6); FleetNode node = startNode.apply(own)) {
            while (!queries.caughtUp()) {
                Thread.sleep(50);
            }
            seconds = (System.nanoTime() - start) / 1e9; // caught up: the node's shutdown is not its catch-up
            cpu = processorCpuNanos(view);
        }
        long events = queries.progress().stream().mapToLong(FleetQueries.EngineProgress::seen).sum();
        System.out.printf("one node (view %s) caught up with %,d stored events in %.2f s: %,.0f events/s;"
                + " its processor's threads used %.2f s of CPU, %.2f us per event (%,.0f events/s per core)%n",
                view, events, seconds, events / seconds, cpu / 1e9, cpu / 1e3 / events, events / (cpu / 1e9));
    }

    /** CPU time of the processor's coordinator and workers (threads named after the view); not the database's, nor GC's. */
    static long processorCpuNanos(String view) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long cpu = 0;
        for (ThreadInfo thread : threads.dumpAllThreads(false, false)) {
            if (thread.getThreadName().contains("[" + view + "]")) {
                cpu += Math.max(0, threads.getThreadCpuTime(thread.getThreadId()));
            }
        }
        return cpu;
    }

    record Rate(long steps, long events, double seconds, long conflicts) {
    }

    /** Each engine in a thread of its own, warmed up first; the timed part is {@code steps} steps each. */
    static Rate append(PostgresStore store, List<String> engines, int steps) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(engines.size());
        AtomicLong events = new AtomicLong();
        AtomicLong conflicts = new AtomicLong();
        List<KvLedger> ledgers = new ArrayList<>();
        List<DecodeWorkload> workloads = new ArrayList<>();
        try {
            for (String engine : engines) {
                KvLedger ledger = store.ledger(engine).config(EngineConfig.DEFAULTS).build();
                DecodeWorkload workload = new DecodeWorkload(REQUESTS);
                workload.observe(ledger.step(workload.warmUp()).events());
                for (int i = 0; i < steps / 4; i++) {
                    workload.observe(ledger.step(workload.nextStep()).events());
                }
                ledgers.add(ledger);
                workloads.add(workload);
            }
            long start = System.nanoTime();
            List<Future<?>> runs = new ArrayList<>();
            for (int e = 0; e < engines.size(); e++) {
                KvLedger ledger = ledgers.get(e);
                DecodeWorkload workload = workloads.get(e);
                runs.add(threads.submit(() -> {
                    for (int i = 0; i < steps; i++) {
                        try {
                            StepResult result = ledger.step(workload.nextStep());
                            workload.observe(result.events());
                            events.addAndGet(result.events().size());
                        } catch (EngineConflictException conflict) {
                            conflicts.incrementAndGet();
                        }
                    }
                }));
            }
            for (Future<?> run : runs) {
                run.get();
            }
            return new Rate((long) steps * engines.size(), events.get(), (System.nanoTime() - start) / 1e9, conflicts.get());
        } finally {
            ledgers.forEach(KvLedger::close);
            threads.shutdownNow();
        }
    }
}
