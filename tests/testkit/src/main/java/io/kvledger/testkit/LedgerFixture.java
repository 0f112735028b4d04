package io.kvledger.testkit;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A given-when-then test of the engine over the embedding API, with no Axon type in sight:
 *
 * <pre>{@code
 * LedgerFixture.with(EngineConfig.DEFAULTS.withGpuBlockSize(4))
 *         .givenCommands(new RegisterRequest("r", List.of(1, 2, 3, 4)), new MatchPrefix("r"),
 *                 new AllocateBlocks("r", List.of(7)))
 *         .when(new ComputeTokens("r", 4))
 *         .thenStoreJobs(...)
 *         .thenRejections();
 * }</pre>
 *
 * <p>The given part is events (a history, folded as a resumed ledger folds its store) and then commands
 * (decided by the engine, as a host sends them); the when part is one scheduler step. After it, the
 * fixture checks that replay equals live: folding every event (given and produced) with the domain's
 * fold, and resuming a second ledger on the same store, both give the live state. Each use is one test.
 */
public final class LedgerFixture {

    private static final String ENGINE = "engine";

    private final List<EngineEvent> history = new ArrayList<>();
    private final List<List<StepEntry>> givenSteps = new ArrayList<>();

    private LedgerFixture(EngineConfigured configured) {
        history.add(configured);
    }

    /** An engine with {@code config}, nothing else given yet. */
    public static LedgerFixture with(EngineConfig config) {
        return new LedgerFixture(EngineConfigured.of(Objects.requireNonNull(config, "config")));
    }

    /** An engine with the contract's defaults. */
    public static LedgerFixture withDefaults() {
        return with(EngineConfig.DEFAULTS);
    }

    /** An engine whose history is {@code events}, the first of which is its {@code EngineConfigured}. */
    public static LedgerFixture fromHistory(List<? extends EngineEvent> events) {
        if (events.isEmpty() || !(events.get(0) instanceof EngineConfigured configured)) {
            throw new IllegalArgumentException("a history starts with EngineConfigured, was " + (events.isEmpty() ? "empty" : events.get(0)));
        }
        return new LedgerFixture(configured).given(events.subList(1, events.size()));
    }

    /** Events that happened before the when part, folded in order. */
    public LedgerFixture given(EngineEvent... events) {
        return given(List.of(events));
    }

    /** Events that happened before the when part, folded in order; they come before any given command. */
    public LedgerFixture given(List<? extends EngineEvent> events) {
        if (!givenSteps.isEmpty()) {
            throw new IllegalStateException("given events come before given commands: commands are decided on the events");
        }
        for (EngineEvent event : events) {
            if (event instanceof EngineConfigured) {
                throw new IllegalArgumentException("the engine is configured once, by with(config) or the history's first event");
            }
            history.add(Objects.requireNonNull(event, "event"));
        }
        return this;
    }

    /** Commands the engine decides, as one step, before the when part (lines 1, 2, ...). */
    public LedgerFixture givenCommands(EngineCommand... commands) {
        return givenCommands(List.of(commands));
    }

    /** Commands the engine decides, as one step, before the when part (lines 1, 2, ...). */
    public LedgerFixture givenCommands(List<? extends EngineCommand> commands) {
        givenSteps.add(numbered(commands));
        return this;
    }

    /** The when part: {@code commands} as one scheduler step, at lines 1, 2, ... */
    public Outcome when(EngineCommand... commands) {
        return when(List.of(commands));
    }

    /** The when part: {@code commands} as one scheduler step, at lines 1, 2, ... */
    public Outcome when(List<? extends EngineCommand> commands) {
        return whenStep(numbered(commands));
    }

    /** The when part: one scheduler step of commands at given lines (a rejection names its line). */
    public Outcome whenStep(List<StepEntry> entries) {
        GivenStore store = new GivenStore(ENGINE, history);
        List<EngineEvent> all = new ArrayList<>(history);
        StepResult result;
        try (KvLedger ledger = KvLedger.builder().engineId(ENGINE).store(store.store()).build()) {
            for (List<StepEntry> step : givenSteps) {
                all.addAll(ledger.stepEntries(step).events());
            }
            result = ledger.stepEntries(entries);
            all.addAll(result.events());
            replayEqualsLive(all, result.state());
        }
        try (KvLedger resumed = KvLedger.builder().engineId(ENGINE).store(store.store()).build()) {
            if (!resumed.state().equals(result.state())) {
                throw new AssertionError("replay differs from live: a ledger resumed on the given and produced events has\n  "
                        + resumed.state() + "\nbut the live state after the step is\n  " + result.state());
            }
        }
        return new Outcome(result);
    }

    /** Folding every event with the domain's fold gives the live state; package-private so a test can make it fail. */
    static void replayEqualsLive(List<EngineEvent> all, EngineState live) {
        EngineState folded = EngineFold.fold(all);
        if (!folded.equals(live)) {
            throw new AssertionError("replay differs from live: folding the " + all.size()
                    + " given and produced events gives\n  " + folded + "\nbut the live state after the step is\n  " + live);
        }
    }

    private static List<StepEntry> numbered(List<? extends EngineCommand> commands) {
        List<StepEntry> entries = new ArrayList<>(commands.size());
        for (int i = 0; i < commands.size(); i++) {
            entries.add(new StepEntry(i + 1, commands.get(i)));
        }
        return entries;
    }
}
