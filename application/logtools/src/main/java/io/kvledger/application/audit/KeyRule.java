package io.kvledger.application.audit;

import io.kvledger.application.replay.CommandWindow;
import io.kvledger.application.replay.FoldStep;
import io.kvledger.application.replay.KeyConflict;
import io.kvledger.domain.event.RequestEvent;

/** Keys (contract section 1): KEY_MISMATCH, a key naming two token prefixes or a prefix under two keys. */
final class KeyRule implements AuditRule {

    @Override
    public void check(FoldStep step, CommandWindow window, Findings findings) {
        if (step.conflicts().isEmpty()) {
            return; // nearly every event: no iterator, and no interface type test (slow under C1)
        }
        String requestId = step.event() instanceof RequestEvent e ? e.requestId() : null;
        for (KeyConflict conflict : step.conflicts()) {
            String reason = conflict.logKeyReused()
                    ? "key " + conflict.logKey() + " names a chunk whose tokens differ from those it named before"
                    : "key " + conflict.logKey() + " names a chunk whose tokens the log keyed " + conflict.earlier() + " before";
            findings.add(AuditCode.KEY_MISMATCH, requestId, reason);
        }
    }
}
