package io.kvledger.simulation;

import io.kvledger.application.KvLedger;
import io.kvledger.application.check.CheckCode;
import io.kvledger.application.finding.Finding;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The stepping side of a simulation: the seeded host plans each scheduler step, the engine takes it,
 * the host reacts to the events and checks its own rules, and the outcome goes to {@code sink} in order.
 * It opens, steps and closes the engine on one thread. It stops after the outcome that ends the run (the
 * end, an error, or a step whose host findings or stuck finding will fail it), or when {@code stopped}
 * says the checking side has failed.
 */
final class StepLoop {

    private static final int STALL_STEPS = 20_000;
    /** Measures, never decides: the engine's and the host's share of this thread's time, for {@code bench}. */
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    private final SimulationOptions options;
    private final Function<EngineConfig, KvLedger> engines;
    private final Consumer<Stepped> sink;
    private final BooleanSupplier stopped;
    /**
     * Whether this thread's CPU clock is read around each step and hand-off: four reads a step, each a system
     * call of 1 to 6 µs on a virtual machine, so only when asked ({@link Simulator#timed}).
     */
    private final boolean timed;
    private long handing;

    StepLoop(SimulationOptions options, Function<EngineConfig, KvLedger> engines, Consumer<Stepped> sink,
             BooleanSupplier stopped, boolean timed) {
        this.options = options;
        this.engines = engines;
        this.sink = sink;
        this.stopped = stopped;
        this.timed = timed;
    }

    private long cpuNanos() {
        return timed ? CPU.getCurrentThreadCpuTime() : 0;
    }

    void run() {
        long now = 0;
        // The events of the step under way the host has seen: counted, and cut out only if the step throws.
        List<EngineEvent> stepEvents = List.of();
        int seen = 0;
        boolean finished = false;
        long started = cpuNanos();
        try {
            EngineConfig config = options.engineConfig();
            SplittableRandom random = options.workloadRandom();
            Workers workers = new Workers(random.split(), config.workers(), options.failRate());
            SimulatedHost host = new SimulatedHost(options, config, workers);
            Scheduler scheduler = new Scheduler(host, random.split(), new Arrivals(random.split(), options));
            SimulationSummary summary = new SimulationSummary();
            Stepped.End end;
            try (KvLedger ledger = engines.apply(config)) {
                EngineConfigured configured = ledger.configured();
                summary.count(configured);
                hand(new Stepped.Configured(configured));
                long seq = 1;
                long line = 1;
                long quietSince = 0;
                long lastEnd = 0;
                for (now = 1; !(summary.requests == options.requests() && host.idle()
                        && ledger.state().jobs().isEmpty()); now++) {
                    if (stopped.getAsBoolean()) {
                        return;
                    }
                    List<EngineCommand> commands = scheduler.plan(now);
                    List<StepEntry> entries = new ArrayList<>(commands.size());
                    for (EngineCommand command : commands) {
                        entries.add(new StepEntry(++line, command));
                    }
                    long before = cpuNanos();
                    StepResult result = step(ledger, entries, now);
                    summary.engineCpuNanos += cpuNanos() - before;
                    List<EngineEvent> events = result.events();
                    stepEvents = events;
                    for (int i = 0; i < events.size(); i++) {
                        EngineEvent event = events.get(i);
                        seq++;
                        seen = i + 1;
                        host.observe(event, now);
                        summary.count(event);
                        if (event instanceof RequestFinished || event instanceof RequestAborted) {
                            lastEnd = now;
                        }
                    }
                    host.checks.at(seq);
                    finished = true;
                    host.endStep(result.state(), now);
                    List<Finding> hostFindings = host.checks.drain();
                    summary.steps++;
                    summary.commands += commands.size();
                    quietSince = events.isEmpty() ? quietSince : now;
                    Finding stuck = null;
                    if (now - quietSince > STALL_STEPS) {
                        stuck = new Finding(seq, CheckCode.STALLED, null, "no event for " + STALL_STEPS + " steps");
                    } else if (host.requests.isEmpty()) {
                        lastEnd = now;
                    } else if (now - lastEnd > Simulator.PROGRESS_STEPS) {
                        stuck = new Finding(seq, CheckCode.NO_PROGRESS, null, "no request finished or was aborted in "
                                + Simulator.PROGRESS_STEPS + " steps while " + host.requests.size() + " are live");
                    }
                    // The checking side folds the same events itself; it is lent the engine's state only to
                    // compare it whole, and this side waits meanwhile (the state is read only while it is the newest).
                    Stepped.Live live = Stepped.Live.of(result.state(), now % StepChecker.FULL_REPLAY_EVERY == 0);
                    hand(new Stepped.Step(now, entries, events, live, hostFindings, stuck));
                    if (!live.awaitGivenBack(stopped)) {
                        throw new Simulator.CheckerFailed(null);
                    }
                    if (!hostFindings.isEmpty() || stuck != null) {
                        return; // the checking side fails the run at this step
                    }
                    stepEvents = List.of();
                    seen = 0;
                    finished = false;
                }
                summary.refused = host.refused;
                summary.steppingCpuNanos = cpuNanos() - started - handing;
                end = new Stepped.End(ledger.state(), summary);
            }
            sink.accept(end);
        } catch (Simulator.CheckerFailed failed) {
            throw failed; // the checking side's failure, not the loop's
        } catch (Throwable error) {
            if (!stopped.getAsBoolean()) {
                sink.accept(new Stepped.Thrown(now, List.copyOf(stepEvents.subList(0, seen)), finished, error));
            }
        }
    }

    /** Hands an outcome on; the time it takes (the checks themselves, on one thread) is not the stepping's. */
    private void hand(Stepped stepped) {
        long before = cpuNanos();
        sink.accept(stepped);
        handing += cpuNanos() - before;
    }

    private StepResult step(KvLedger ledger, List<StepEntry> entries, long now) {
        try {
            return ledger.stepEntries(entries);
        } catch (RuntimeException e) {
            throw new SimulationFailure(options.seed(), now, e);
        }
    }
}
