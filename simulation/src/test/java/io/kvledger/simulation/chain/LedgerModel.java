package io.kvledger.simulation.chain;

import io.kvledger.application.KvLedger;
import io.kvledger.application.check.EventLogRules;
import io.kvledger.application.finding.Finding;
import io.kvledger.application.engine.StepEntry;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The system under test of the stateful properties: a {@link KvLedger} fed one command per action
 * through the embedding API, with the log it wrote, the commands it was given (for the scenario a
 * failure is written as), and the checks that run on every event.
 */
final class LedgerModel implements AutoCloseable {

    /** The model of the chain running on this thread, so that a failure can still write its commands. */
    private static final ThreadLocal<LedgerModel> CURRENT = new ThreadLocal<>();

    final EngineConfig config;
    private final KvLedger ledger;
    final List<EngineEvent> log = new ArrayList<>();
    final List<EngineCommand> commands = new ArrayList<>();
    final List<String> requestIds = new ArrayList<>();
    final Map<String, PrefixMatched> lastMatch = new LinkedHashMap<>();
    private final EventLogRules rules = new EventLogRules();
    private final List<Finding> findings = new ArrayList<>();
    private boolean rejectionChangedState;

    private LedgerModel(EngineConfig config) {
        this.config = config;
        this.ledger = KvLedger.builder().config(config).build();
        log.add(ledger.configured());
        findings.addAll(rules.check(1, ledger.configured()));
    }

    static LedgerModel open(EngineConfig config) {
        LedgerModel model = new LedgerModel(config);
        LedgerModel previous = CURRENT.get();
        if (previous != null) {
            previous.close();
        }
        CURRENT.set(model);
        return model;
    }

    /** The model of the last chain started on this thread, or {@code null}. */
    static LedgerModel current() {
        return CURRENT.get();
    }

    /** Executes one command as one step; a throw here is the "no exception" invariant failing. */
    void execute(EngineCommand command) {
        commands.add(command);
        EngineState before = ledger.state().copy(); // the state is folded in place: the state before is a copy
        StepResult result = ledger.stepEntries(List.of(new StepEntry(commands.size() + 1L, command)));
        for (EngineEvent event : result.events()) {
            log.add(event);
            findings.addAll(rules.check(log.size(), event));
            if (event instanceof PrefixMatched matched) {
                lastMatch.put(matched.requestId(), matched);
            }
        }
        findings.addAll(rules.finish()); // a step ends its commands: judge the last one now
        if (!result.rejections().isEmpty() && !ledger.state().equals(before)) {
            rejectionChangedState = true;
        }
    }

    EngineState state() {
        return ledger.state();
    }

    RequestState request(String id) {
        return ledger.state().heldRequest(id);
    }

    String nextId() {
        return "r" + requestIds.size();
    }

    // ---------------------------------------------------------------- invariants

    void replayEqualsLive() {
        check(EngineFold.fold(log).equals(ledger.state()), "replay of the log differs from the live state");
    }

    void rejectedCommandsChangeNothing() {
        check(!rejectionChangedState, "a rejected command changed the state");
    }

    /** Store slices agree in length, lie under the token bound and in the table; job ids ascend from 0; tier within capacity. */
    void logRulesHold() {
        check(findings.isEmpty(), "the log breaks a rule: " + findings);
    }

    void tierWithinCapacity() {
        check(ledger.state().tier().size() <= config.cpuCapacityChunks(), "the tier holds " + ledger.state().tier().size()
                + " chunks, capacity " + config.cpuCapacityChunks());
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }

    @Override
    public void close() {
        ledger.close();
        if (CURRENT.get() == this) {
            CURRENT.remove();
        }
    }

    @Override
    public String toString() {
        return "LedgerModel after " + commands.size() + " commands, config " + config;
    }
}
