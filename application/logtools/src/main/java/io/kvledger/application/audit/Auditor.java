package io.kvledger.application.audit;

import io.kvledger.application.finding.Finding;
import io.kvledger.application.replay.CommandWindow;
import io.kvledger.application.replay.FoldStep;
import io.kvledger.application.replay.LogFold;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Checks a log against the rules of contract section 4. Two kinds of rule, one interface
 * ({@link AuditRule}), kept in one list: rules judged event by event from the state before each event
 * (store slices and bounds, loads, releases and fences, completions and job ids, keys, the tier's
 * capacity), and {@link CommandDerivation}, which rebuilds each command from its own event, lets the
 * domain's own {@code Decider} decide it on the state folded so far and compares what the rules derive
 * with what the log shows, field by field. A log written by another implementation (other keys, other
 * job ids, extra fields, unknown types) is judged by the rules, not by kvledger's spelling.
 *
 * <p>Each finding has its class ({@link Finding#ruleClass()}, contract 9.2); an auditor made with
 * {@link AuditRules#SAFETY} reports only the safety ones.
 *
 * <p>Feed it every event in order, from {@code EngineConfigured}, then call {@link #finish()}: a command
 * is judged when the next one starts, so its findings may come one call late, each with its own seq.
 *
 * <pre>{@code
 * Auditor auditor = new Auditor();
 * for (each event of the log) findings.addAll(auditor.check(seq, event));
 * findings.addAll(auditor.finish());
 * }</pre>
 */
public final class Auditor {

    private final LogFold fold;
    private final CommandWindow window = new CommandWindow();
    private final CommandDerivation derivation;
    // Each rule's check is called through a field of its own class, in the order of rules: one call site per
    // final class, bound directly, where a loop over the interface paid C1's interface dispatch seven times an event.
    private final KeyRule keyRule = new KeyRule();
    private final StoreRules storeRules = new StoreRules();
    private final LoadRules loadRules = new LoadRules();
    private final ReleaseRules releaseRules = new ReleaseRules();
    private final CompletionRules completionRules = new CompletionRules();
    private final TierRule tierRule = new TierRule();
    /** Every rule, in the order each phase runs them: a rule added here is added to {@link #check}'s calls too. */
    private final AuditRule[] rules;
    /** Of {@link #rules}, in their order, those with a {@code checkFolded} and those with an {@code observe}. */
    private final AuditRule[] foldedCheckers;
    private final AuditRule[] observers;
    private final AuditRules reported;

    /** An auditor of a log from its first event. */
    public Auditor() {
        this(null, null);
    }

    /** An auditor that tells {@code listener} how each command was judged (for {@code audit --explain}). */
    public Auditor(Consumer<CommandJudgement> listener) {
        this(null, listener);
    }

    /**
     * An auditor of a log that begins after {@code base} (a store segment's base; {@code null} for a log
     * from its first event), telling {@code listener} (when not {@code null}) how each command was
     * judged: the rules that look at the state see the base; what the lines before it did is known
     * only through that state.
     */
    public Auditor(EngineState base, Consumer<CommandJudgement> listener) {
        this(base, listener, AuditRules.ALL);
    }

    /**
     * The same, reporting only the findings {@code reported} keeps ({@code audit --rules}, contract 9.2):
     * every rule is judged either way, so the fold and the findings kept are those of a full audit.
     */
    public Auditor(EngineState base, Consumer<CommandJudgement> listener, AuditRules reported) {
        this.reported = java.util.Objects.requireNonNull(reported, "reported");
        // Only the log's fold folds: the decider reads the state before each command and changes nothing.
        fold = new LogFold(base);
        derivation = new CommandDerivation(base, listener);
        rules = new AuditRule[] {keyRule, storeRules, loadRules, releaseRules, completionRules, tierRule, derivation};
        foldedCheckers = declaring(rules, "checkFolded", FoldStep.class, CommandWindow.class, Findings.class);
        observers = declaring(rules, "observe", FoldStep.class);
    }

    /**
     * The rules, in order, that declare {@code method} themselves: a rule that keeps the interface's empty default
     * is not called for that phase (two calls an event each, which cost about 2 % of an audit under C1).
     */
    private static AuditRule[] declaring(AuditRule[] rules, String method, Class<?>... parameters) {
        List<AuditRule> declaring = new ArrayList<>();
        for (AuditRule rule : rules) {
            try {
                if (rule.getClass().getMethod(method, parameters).getDeclaringClass() != AuditRule.class) {
                    declaring.add(rule);
                }
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException("AuditRule has no method " + method, e);
            }
        }
        return declaring.toArray(AuditRule[]::new);
    }

    /**
     * Checks one event and folds it.
     *
     * @param event the event, or {@code null} for a type this version does not know (skipped)
     * @return what it, or the command before it, breaks, in a stable order; empty when nothing
     */
    public List<Finding> check(long seq, EngineEvent event) {
        if (event == null) {
            return List.of();
        }
        Findings findings = new Findings(seq);
        EngineState repaired = fold.state() == null ? null : derivation.beforeFold(event, findings, fold.state());
        if (repaired != null) {
            fold.continueFrom(repaired);
        }
        FoldStep pending = fold.prepare(seq, event);
        derivation.prepared(pending);
        if (pending.before() != null) {
            keyRule.check(pending, window, findings);
            storeRules.check(pending, window, findings);
            loadRules.check(pending, window, findings);
            releaseRules.check(pending, window, findings);
            completionRules.check(pending, window, findings);
            tierRule.check(pending, window, findings);
            derivation.check(pending, window, findings);
        }
        window.before(pending);
        FoldStep step = fold.complete(pending);
        derivation.completed(pending);
        if (pending.before() != null) {
            for (AuditRule rule : foldedCheckers) {
                rule.checkFolded(step, window, findings);
            }
        } else {
            derivation.checkFolded(step, window, findings);
        }
        window.observe(step);
        for (AuditRule rule : observers) {
            rule.observe(step);
        }
        return reported.kept(findings.list());
    }

    /**
     * Judges the command whose events came last; call after the last event, or at any point where a
     * command is known to be complete (the end of a scheduler step, as the simulator does).
     */
    public List<Finding> finish() {
        Findings findings = new Findings(0);
        derivation.finish(findings);
        return reported.kept(findings.list());
    }

    /** The key the log used for a token-derived key (itself for kvledger's own logs). */
    public String logKeyOf(String tokenKey) {
        return fold.logKeyOf(tokenKey);
    }

    /** The state after the last event checked. */
    public EngineState state() {
        return fold.state();
    }
}
