package io.kvledger.application.audit;

import java.util.ArrayList;
import java.util.List;

/** The violations found at one event. */
final class Findings {

    private final long seq;
    private final List<Violation> violations = new ArrayList<>(0);

    Findings(long seq) {
        this.seq = seq;
    }

    void add(AuditCode code, String requestId, String reason) {
        violations.add(new Violation(seq, code, requestId, reason));
    }

    List<Violation> list() {
        return violations;
    }
}
