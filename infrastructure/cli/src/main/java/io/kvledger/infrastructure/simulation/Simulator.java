package io.kvledger.infrastructure.simulation;

import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.application.check.EventLogRules;
import io.kvledger.application.check.LogCheck;
import io.kvledger.application.check.CheckCode;
import io.kvledger.application.check.Finding;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Drives an engine through the embedding API with a seeded workload, one {@code KvLedger.step} per
 * scheduler step, and checks every step: the log rules ({@link EventLogRules}, plus any {@link LogCheck}
 * given, such as the audit), the host's own checks, and that the log folds to the live state. Nothing
 * depends on the wall clock or on hash order, so a seed always gives the same commands and events.
 *
 * <p>Command {@code i} (from 0) is recorded at line {@code i + 2}, as if it were read from a scenario
 * whose first line is the config line: {@code kvledger run} of the recorded commands gives the same log.
 */
public final class Simulator {

    /** Receives what the simulation produces, in order. */
    public interface Listener {
        void configured(EngineConfigured configured);

        void step(List<StepEntry> entries, List<EngineEvent> events);
    }

    private static final int STALL_STEPS = 20_000;
    /** Steps with requests live but none ending, after which the run is stuck (a livelock) and stops. */
    static final int PROGRESS_STEPS = 5_000;
    private static final int FULL_REPLAY_EVERY = 512;

    private final SimulationOptions options;
    private final java.util.function.Supplier<LogCheck> audits;
    private final Function<EngineConfig, KvLedger> engines;

    /** Every event is checked by {@link EventLogRules}, {@code kvledger audit}'s rules among them. */
    public Simulator(SimulationOptions options) {
        this(options, () -> (seq, event) -> List.of());
    }

    /** @param audits a further check of every event, a new one per run */
    public Simulator(SimulationOptions options, java.util.function.Supplier<LogCheck> audits) {
        this(options, audits, Simulator::ledger);
    }

    /** @param engines opens the engine to drive; the real one is {@link #ledger} */
    public Simulator(SimulationOptions options, java.util.function.Supplier<LogCheck> audits,
                     Function<EngineConfig, KvLedger> engines) {
        this.options = options;
        this.audits = audits;
        this.engines = engines;
    }

    /** The real engine: a {@link KvLedger} that keeps no events (the simulator's log is the record). */
    public static KvLedger ledger(EngineConfig config) {
        return KvLedger.builder().config(config).store(LedgerStore.discarding()).build();
    }

    public SimulationSummary run(Listener listener) {
        long start = System.nanoTime(); // only for the summary's rate; never for a decision
        EngineConfig config = options.engineConfig();
        SplittableRandom random = options.workloadRandom();
        Workers workers = new Workers(random.split(), config.workers(), options.failRate());
        SimulatedHost host = new SimulatedHost(options, config.gpuBlockSize(), workers);
        Scheduler scheduler = new Scheduler(host, random.split(), new Arrivals(random.split(), options));
        EventLogRules rules = new EventLogRules();
        LogCheck checks = rules.and(audits.get());
        SimulationSummary summary = new SimulationSummary();
        long seq = 0;
        long line = 1;
        try (KvLedger ledger = engines.apply(config)) {
            EngineConfigured configured = ledger.configured();
            listener.configured(configured);
            summary.count(configured);
            fail(0, checks.check(++seq, configured));
            long quietSince = 0;
            long lastEnd = 0;
            for (long now = 1; !(summary.requests == options.requests() && host.idle()
                    && ledger.state().jobs().isEmpty()); now++) {
                List<EngineCommand> commands = scheduler.plan(now);
                List<StepEntry> entries = new ArrayList<>(commands.size());
                for (EngineCommand command : commands) {
                    entries.add(new StepEntry(++line, command));
                }
                StepResult result = step(ledger, entries, now);
                List<Finding> findings = new ArrayList<>();
                for (EngineEvent event : result.events()) {
                    findings.addAll(checks.check(++seq, event));
                    host.observe(event, now);
                    summary.count(event);
                    if (event instanceof RequestFinished || event instanceof RequestAborted) {
                        lastEnd = now;
                    }
                }
                findings.addAll(checks.finish()); // a step ends its commands: judge the last one now
                host.checks.at(seq);
                host.endStep(result.state(), now);
                findings.addAll(host.checks.drain());
                replayEqualsLive(rules.state(), result.state(), now, seq, findings);
                listener.step(entries, result.events());
                summary.steps++;
                summary.commands += commands.size();
                fail(now, findings);
                quietSince = result.events().isEmpty() ? quietSince : now;
                if (now - quietSince > STALL_STEPS) {
                    fail(now, List.of(new Finding(seq, CheckCode.STALLED, null, "no event for " + STALL_STEPS + " steps")));
                }
                if (host.requests.isEmpty()) {
                    lastEnd = now;
                } else if (now - lastEnd > PROGRESS_STEPS) {
                    fail(now, List.of(new Finding(seq, CheckCode.NO_PROGRESS, null, "no request finished or was aborted in "
                            + PROGRESS_STEPS + " steps while " + host.requests.size() + " are live")));
                }
            }
            replayEqualsLive(rules.state(), ledger.state(), 0, seq, new ArrayList<>());
        }
        summary.refused = host.refused;
        summary.nanos = System.nanoTime() - start;
        return summary;
    }

    private StepResult step(KvLedger ledger, List<StepEntry> entries, long now) {
        try {
            return ledger.stepEntries(entries);
        } catch (RuntimeException e) {
            throw new SimulationFailure(options.seed(), now, e);
        }
    }

    /** The log folded so far equals the engine's state: cheaply every step, whole every few hundred and at the end. */
    private void replayEqualsLive(EngineState replayed, EngineState live, long now, long seq, List<Finding> findings) {
        boolean whole = now % FULL_REPLAY_EVERY == 0;
        boolean same = replayed.nextJobId() == live.nextJobId() && replayed.tier().size() == live.tier().size()
                && replayed.requests().size() == live.requests().size() && replayed.jobs().size() == live.jobs().size()
                && replayed.retired().size() == live.retired().size()
                && (!whole || (replayed.requests().equals(live.requests()) && replayed.tier().equals(live.tier())
                        && replayed.jobs().equals(live.jobs()) && replayed.fences().equals(live.fences())));
        if (now == 0) {
            same = replayed.equals(live);
        }
        if (!same) {
            findings.add(new Finding(seq, CheckCode.REPLAY_MISMATCH, null, "the log folds to another state than the engine's"));
            fail(now, findings);
        }
    }

    private void fail(long now, List<Finding> findings) {
        if (!findings.isEmpty()) {
            throw new SimulationFailure(options.seed(), now, findings);
        }
    }
}
