package io.kvledger.application.check;

import io.kvledger.application.audit.Auditor;
import io.kvledger.application.finding.Finding;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.RequestEvent;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.TierChunk;
import java.util.ArrayList;
import java.util.List;

/**
 * Every rule a log shows event by event, for the simulator, the shrinker and the property tests: the
 * audit's rules of contract section 4 (the {@link Auditor} of {@code kvledger audit} itself), plus three
 * the audit does not name (a pinned chunk evicted, an empty release, job ids out of scheduling order).
 * The auditor's fold is the state a caller compares with the live one.
 */
public final class EventLogRules implements LogCheck {

    private final Auditor auditor = new Auditor();
    private long nextJobId;

    @Override
    public List<Finding> check(long seq, EngineEvent event) {
        EngineState state = auditor.state();
        if (state == null && !(event instanceof EngineConfigured)) {
            return List.of(new Finding(seq, CheckCode.NOT_CONFIGURED, null, "the first event is not EngineConfigured"));
        }
        // Read before the audit folds the event: only the newest state is read (the state is changed in place by the fold).
        List<Finding> pinnedEvicted = event instanceof ChunksEvicted evicted && state != null
                ? pinnedEvicted(seq, evicted, state) : List.of();
        List<Finding> findings = new ArrayList<>();
        findings.addAll(auditor.check(seq, event));
        if (event instanceof EngineConfigured) {
            return findings;
        }
        String requestId = event instanceof RequestEvent e ? e.requestId() : null;
        if (event instanceof StoreJobScheduled store) {
            jobId(seq, requestId, store.jobId(), findings);
        } else if (event instanceof LoadJobScheduled load) {
            jobId(seq, requestId, load.jobId(), findings);
        } else if (event instanceof ChunksEvicted) {
            findings.addAll(pinnedEvicted);
        } else if (event instanceof BlocksReleased released && released.blockIds().isEmpty()) {
            findings.add(new Finding(seq, CheckCode.EMPTY_RELEASE, requestId, "BlocksReleased names no block"));
        }
        return findings;
    }

    @Override
    public List<Finding> finish() {
        return auditor.finish();
    }

    /** The state after the last event checked. */
    public EngineState state() {
        return auditor.state();
    }

    /** The evicted chunks that loads still read, in the event's order, as the state before the event holds them. */
    private static List<Finding> pinnedEvicted(long seq, ChunksEvicted evicted, EngineState before) {
        List<Finding> findings = new ArrayList<>();
        for (String key : evicted.keys()) {
            TierChunk chunk = before.tier().chunk(key);
            if (chunk != null && chunk.pins() > 0) {
                findings.add(new Finding(seq, CheckCode.PINNED_EVICTED, null,
                        "chunk " + key + " is evicted while " + chunk.pins() + " loads read it"));
            }
        }
        return findings;
    }

    private void jobId(long seq, String requestId, long jobId, List<Finding> findings) {
        if (jobId != nextJobId) {
            findings.add(new Finding(seq, CheckCode.JOB_ID_OUT_OF_ORDER, requestId,
                    "job " + jobId + " scheduled where job " + nextJobId + " was next"));
        }
        nextJobId = Math.max(nextJobId, jobId + 1);
    }
}
