package io.kvledger.application.audit;

import io.kvledger.application.replay.CommandWindow;
import io.kvledger.application.replay.FoldStep;
import io.kvledger.domain.event.RequestEvent;

/** The fold adds every chunk a store writes; the tier must have had room for them: TIER_OVER_CAPACITY. */
final class TierRule implements AuditRule {

    /** The tier's size before the event being checked. */
    private int heldBefore;

    @Override
    public void check(FoldStep step, CommandWindow window, Findings findings) {
        heldBefore = step.before().tier().size();
    }

    @Override
    public void checkFolded(FoldStep step, CommandWindow window, Findings findings) {
        int held = step.after().tier().size();
        int capacity = step.after().tier().capacity();
        if (held > capacity && held > heldBefore) {
            String requestId = step.event() instanceof RequestEvent e ? e.requestId() : null;
            findings.add(AuditCode.TIER_OVER_CAPACITY, requestId, "the tier holds " + held + " chunks after this event, "
                    + "over its capacity of " + capacity + ": it should have evicted ready chunks or deferred the store");
        }
    }
}
