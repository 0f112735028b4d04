package io.kvledger.application.check;

import io.kvledger.application.audit.Auditor;

/** The audit's rules ({@code kvledger audit}) as a {@link LogCheck}, for the simulator and the shrinker. */
public final class AuditCheck {

    private AuditCheck() {
    }

    /** A new check: the audit keeps state as it reads, so each log gets its own. */
    public static LogCheck create() {
        Auditor auditor = new Auditor();
        return LogCheck.of(auditor::check, v -> new LogFinding(v.seq(), v.code().name(), v.requestId(), v.reason()));
    }
}
