package io.kvledger.application.audit;

import io.kvledger.application.finding.Finding;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import java.util.List;
import java.util.function.Supplier;

/**
 * One command of a log judged: what the rules derive from the state before it and what the log shows.
 * {@code kvledger audit --explain SEQ} prints it.
 *
 * <p>The state before the command is rebuilt from the audit's checkpoint only when {@link #before} is asked for, and
 * only while the listener is being told: a listener that keeps a judgement keeps {@link #kept()}.
 */
public final class CommandJudgement {

    private final Supplier<EngineState> stateBefore;
    private final EngineCommand command;
    private final Decision decision;
    private final List<EngineEvent> derived;
    private final List<LoggedEvent> logged;
    private final int differsAt;
    private final Finding finding;
    private EngineState before;
    private boolean rebuilt;

    /**
     * @param stateBefore gives the state before the command (a copy of its own), asked at most once
     * @param command     the command its own event records, or {@code null} when none is re-derived
     * @param decision    the domain's decision on it, or {@code null}
     * @param derived     the events the rules give (empty when refused or not re-derived)
     * @param logged      the command's events as the log shows them
     * @param differsAt   the index in {@code logged} of the first difference ({@code logged.size()} when an
     *                    event is missing at the end), or -1 when they agree
     * @param finding     what the comparison reported, or {@code null}
     */
    CommandJudgement(Supplier<EngineState> stateBefore, EngineCommand command, Decision decision,
                     List<EngineEvent> derived, List<LoggedEvent> logged, int differsAt, Finding finding) {
        this.stateBefore = stateBefore;
        this.command = command;
        this.decision = decision;
        this.derived = derived;
        this.logged = logged;
        this.differsAt = differsAt;
        this.finding = finding;
    }

    /** The state before the command (read it, do not fold it). */
    public EngineState before() {
        if (!rebuilt) {
            before = stateBefore.get();
            rebuilt = true;
        }
        return before;
    }

    /** This judgement with its state before rebuilt now, to be read after the listener returns. */
    public CommandJudgement kept() {
        before();
        return this;
    }

    public EngineCommand command() {
        return command;
    }

    public Decision decision() {
        return decision;
    }

    public List<EngineEvent> derived() {
        return derived;
    }

    public List<LoggedEvent> logged() {
        return logged;
    }

    public int differsAt() {
        return differsAt;
    }

    public Finding finding() {
        return finding;
    }

    public long firstSeq() {
        return logged.get(0).seq();
    }

    public long lastSeq() {
        return logged.get(logged.size() - 1).seq();
    }

    public boolean covers(long seq) {
        return firstSeq() <= seq && seq <= lastSeq();
    }
}
