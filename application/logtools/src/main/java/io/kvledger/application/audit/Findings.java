package io.kvledger.application.audit;

import io.kvledger.application.finding.Finding;
import io.kvledger.application.finding.RuleClass;
import java.util.ArrayList;
import java.util.List;

/** The findings at one event; a rule reads {@link #any()} to stay silent where another already spoke. */
public final class Findings {

    private final long seq;
    /** Made at the first finding: nearly every event has none. */
    private List<Finding> found;

    Findings(long seq) {
        this.seq = seq;
    }

    public void add(AuditCode code, String requestId, String reason) {
        add(seq, code, requestId, reason);
    }

    /** A finding at an earlier event of the same command (a command is judged when it ends). */
    public void add(long atSeq, AuditCode code, String requestId, String reason) {
        if (found == null) {
            found = new ArrayList<>(1);
        }
        for (int i = 0; i < found.size(); i++) {
            Finding finding = found.get(i);
            if (finding.seq() == atSeq && finding.code() == code) {
                // One line per code per event; a safety case joins a policy one, so the line is safety.
                if (!finding.isSafety() && code.ruleClass(reason) == RuleClass.SAFETY) {
                    found.set(i, new Finding(atSeq, code, finding.requestId(), finding.reason() + "; " + reason));
                }
                return;
            }
        }
        found.add(new Finding(atSeq, code, requestId, reason));
    }

    public boolean any() {
        return found != null;
    }

    List<Finding> list() {
        return found == null ? List.of() : found;
    }
}
