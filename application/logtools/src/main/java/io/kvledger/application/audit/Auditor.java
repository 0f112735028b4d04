package io.kvledger.application.audit;

import io.kvledger.application.replay.CommandWindow;
import io.kvledger.application.replay.FoldStep;
import io.kvledger.application.replay.KeyConflict;
import io.kvledger.application.replay.LogFold;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestEvent;
import io.kvledger.domain.state.EngineState;
import java.util.List;

/**
 * Checks a log against the rules of contract section 4, one event at a time, as the domain fold
 * folds it. It judges each job, flush and release from the state before it rather than comparing with
 * a re-run, so a log written by another implementation (other keys, other job ids) is judged fairly.
 * Feed it every event in order, from {@code EngineConfigured}; plain Java, so a simulator or a test
 * can audit in-process.
 *
 * <pre>{@code
 * Auditor auditor = new Auditor();
 * for (each event of the log) violations.addAll(auditor.check(seq, event));
 * }</pre>
 */
public final class Auditor {

    private final LogFold fold = new LogFold();
    private final CommandWindow window = new CommandWindow();
    private final StoreRules stores = new StoreRules();
    private final LoadRules loads = new LoadRules();
    private final ReleaseRules releases = new ReleaseRules();
    private final CompletionRules completions = new CompletionRules();

    /**
     * Checks one event and folds it.
     *
     * @param event the event, or {@code null} for a type this version does not know (skipped)
     * @return the rules it breaks, in a stable order; empty when none
     */
    public List<Violation> check(long seq, EngineEvent event) {
        FoldStep step = fold.apply(seq, event);
        if (step.event() == null) {
            return List.of();
        }
        if (step.event() instanceof EngineConfigured) {
            stores.clear();
            completions.clear();
            window.observe(step);
            return List.of();
        }
        Findings findings = new Findings(seq);
        keys(step, findings);
        stores.check(step, findings);
        loads.check(step, window, findings);
        releases.check(step, window, findings);
        completions.check(step, findings);
        tier(step, findings);
        window.observe(step);
        stores.observe(step);
        completions.observe(step);
        return findings.list();
    }

    /** The state after the last event checked. */
    public EngineState state() {
        return fold.state();
    }

    private void keys(FoldStep step, Findings findings) {
        String requestId = step.event() instanceof RequestEvent e ? e.requestId() : null;
        for (KeyConflict conflict : step.conflicts()) {
            String reason = conflict.logKeyReused()
                    ? "key " + conflict.logKey() + " names a chunk whose tokens differ from those it named before"
                    : "key " + conflict.logKey() + " names a chunk whose tokens the log keyed " + conflict.earlier() + " before";
            findings.add(AuditCode.KEY_MISMATCH, requestId, reason);
        }
    }

    /** The fold adds every chunk a store writes; the tier must have had room for them. */
    private static void tier(FoldStep step, Findings findings) {
        int held = step.after().tier().size();
        int capacity = step.after().tier().capacity();
        if (held > capacity && held > step.before().tier().size()) {
            String requestId = step.event() instanceof RequestEvent e ? e.requestId() : null;
            findings.add(AuditCode.TIER_OVER_CAPACITY, requestId, "the tier holds " + held + " chunks after this event, "
                    + "over its capacity of " + capacity + ": it should have evicted ready chunks or deferred the store");
        }
    }
}
