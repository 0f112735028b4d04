package io.kvledger.simulation;

import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.application.check.EventLogRules;
import io.kvledger.application.check.LogCheck;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Drives an engine through the embedding API with a seeded workload, one {@code KvLedger.step} per
 * scheduler step, and checks every step: the log rules ({@link EventLogRules}, plus any {@link LogCheck}
 * given, such as the audit), the host's own checks, and that the log folds to the live state. Nothing
 * depends on the wall clock or on hash order, so a seed always gives the same commands and events.
 *
 * <p>Command {@code i} (from 0) is recorded at line {@code i + 2}, as if it were read from a scenario
 * whose first line is the config line: {@code kvledger run} of the recorded commands gives the same log.
 *
 * <p>Pipelined (the default for the real engine on a machine with more than one core), the host and the
 * engine step on a thread of their own ({@link StepLoop}) a few hundred steps ahead, while the caller's
 * thread checks each step and gives it to the listener ({@link StepChecker}), in order: the listener
 * sees the same steps, and a failing run fails at the same step with the same findings, as on one thread.
 * Only the engine may have taken the steps after the failing one.
 */
public final class Simulator {

    /** Receives what the simulation produces, in order, on the thread that called {@link #run}. */
    public interface Listener {
        void configured(EngineConfigured configured);

        void step(List<StepEntry> entries, List<EngineEvent> events);
    }

    /** Steps with requests live but none ending, after which the run is stuck (a livelock) and stops. */
    static final int PROGRESS_STEPS = 5_000;
    /** Steps the stepping thread may run ahead of the checks. */
    private static final int AHEAD_STEPS = 256;

    private final SimulationOptions options;
    private final Supplier<LogCheck> audits;
    private final Function<EngineConfig, KvLedger> engines;
    private final boolean pipelined;
    private final Checks checks;
    private final boolean timed;

    /** Every event is checked by {@link EventLogRules}, {@code kvledger audit}'s rules among them. */
    public Simulator(SimulationOptions options) {
        this(options, () -> (seq, event) -> List.of());
    }

    /** @param audits a further check of every event, a new one per run */
    public Simulator(SimulationOptions options, Supplier<LogCheck> audits) {
        this(options, audits, Simulator::ledger, Runtime.getRuntime().availableProcessors() > 1, Checks.ALL, false);
    }

    /** @param engines opens the engine to drive (on one thread, not the caller's when pipelined); the real one is {@link #ledger} */
    public Simulator(SimulationOptions options, Supplier<LogCheck> audits, Function<EngineConfig, KvLedger> engines) {
        this(options, audits, engines, false, Checks.ALL, false);
    }

    private Simulator(SimulationOptions options, Supplier<LogCheck> audits, Function<EngineConfig, KvLedger> engines,
                      boolean pipelined, Checks checks, boolean timed) {
        this.options = options;
        this.audits = audits;
        this.engines = engines;
        this.pipelined = pipelined;
        this.checks = checks;
        this.timed = timed;
    }

    /** The same simulation, stepping on a thread of its own ({@code true}) or on the caller's. */
    public Simulator pipelined(boolean onTwoThreads) {
        return new Simulator(options, audits, engines, onTwoThreads, checks, timed);
    }

    /** The same simulation with these checks after every step (default {@link Checks#ALL}). */
    public Simulator checks(Checks which) {
        return new Simulator(options, audits, engines, pipelined, which, timed);
    }

    /**
     * The same simulation, measuring ({@code true}) the stepping thread's CPU and the engine's share of it
     * ({@link SimulationSummary#steppingCpuSeconds}, {@link SimulationSummary#engineCpuSeconds}; 0 when not
     * measured, the default): a read of the thread's CPU clock around every step costs the stepping thread
     * some µs on a virtual machine.
     */
    public Simulator timed(boolean measured) {
        return new Simulator(options, audits, engines, pipelined, checks, measured);
    }

    /** The real engine: a {@link KvLedger} that keeps no events (the simulator's log is the record). */
    public static KvLedger ledger(EngineConfig config) {
        return KvLedger.builder().config(config).store(LedgerStore.discarding()).build();
    }

    public SimulationSummary run(Listener listener) {
        long start = System.nanoTime(); // only for the summary's rate; never for a decision
        StepChecker checker = new StepChecker(options.seed(), checks, audits.get(), listener);
        SimulationSummary summary = pipelined ? onTwoThreads(checker) : onThisThread(checker);
        summary.nanos = System.nanoTime() - start;
        summary.checks = checks;
        return summary;
    }

    /** Runs the simulation and returns its log: {@code EngineConfigured}, then every event of every step, in order. */
    public List<EngineEvent> events() {
        List<EngineEvent> log = new ArrayList<>();
        run(new Listener() {
            @Override
            public void configured(EngineConfigured configured) {
                log.add(configured);
            }

            @Override
            public void step(List<StepEntry> entries, List<EngineEvent> events) {
                log.addAll(events);
            }
        });
        return log;
    }

    private SimulationSummary onThisThread(StepChecker checker) {
        SimulationSummary[] end = new SimulationSummary[1];
        try {
            new StepLoop(options, engines, stepped -> {
                try {
                    end[0] = checker.accept(stepped);
                } catch (RuntimeException | Error failure) {
                    throw new CheckerFailed(failure);
                }
            }, () -> false, timed).run();
        } catch (CheckerFailed failed) {
            throw StepChecker.unchecked(failed.getCause());
        }
        return end[0];
    }

    private SimulationSummary onTwoThreads(StepChecker checker) {
        BlockingQueue<Stepped> queue = new ArrayBlockingQueue<>(AHEAD_STEPS);
        AtomicBoolean stopped = new AtomicBoolean();
        Thread stepping = new Thread(() -> {
            try {
                new StepLoop(options, engines, stepped -> handOn(queue, stepped, stopped), stopped::get, timed).run();
            } catch (CheckerFailed ignored) {
                // the checking side stopped the run; it reports why
            }
        }, "simulate-steps");
        stepping.setDaemon(true);
        stepping.start();
        try {
            while (true) {
                SimulationSummary summary = checker.accept(queue.take());
                if (summary != null) {
                    return summary;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the simulation was interrupted", e);
        } finally {
            stopped.set(true);
            queue.clear();
            try {
                stepping.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private static void handOn(BlockingQueue<Stepped> queue, Stepped stepped, AtomicBoolean stopped) {
        try {
            while (!queue.offer(stepped, 20, TimeUnit.MILLISECONDS)) {
                if (stopped.get()) {
                    throw new CheckerFailed(null);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CheckerFailed(e);
        }
    }

    /** What the checking side threw, carried out of the stepping loop unchanged (it is not the loop's own error). */
    static final class CheckerFailed extends RuntimeException {
        CheckerFailed(Throwable cause) {
            super(null, cause, false, false);
        }
    }
}
