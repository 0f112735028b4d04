package io.kvledger.application.audit;

import io.kvledger.application.finding.Finding;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import java.util.List;

/**
 * One command of a log judged: what the rules derive from the state before it and what the log shows.
 * {@code kvledger audit --explain SEQ} prints it.
 *
 * @param before    the state before the command
 * @param command   the command its own event records, or {@code null} when none is re-derived
 * @param decision  the domain's decision on it, or {@code null}
 * @param derived   the events the rules give (empty when refused or not re-derived)
 * @param logged    the command's events as the log shows them
 * @param differsAt the index in {@code logged} of the first difference ({@code logged.size()} when an
 *                  event is missing at the end), or -1 when they agree
 * @param finding   what the comparison reported, or {@code null}
 */
public record CommandJudgement(EngineState before, EngineCommand command, Decision decision, List<EngineEvent> derived,
                               List<LoggedEvent> logged, int differsAt, Finding finding) {

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
