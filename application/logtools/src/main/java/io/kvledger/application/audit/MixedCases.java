package io.kvledger.application.audit;

import io.kvledger.application.finding.RuleClass;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The case of contract 9.2 of a {@code RELEASE_MISMATCH} or {@code MATCH_MISMATCH} that the comparison of a
 * command finds, named in its reason ({@code STORE_BEYOND_BOUND}'s are {@link BoundCases}).
 */
final class MixedCases {

    private MixedCases() {
    }

    /** The reason with its case for these two codes; any other code's reason as it is. */
    static String withCase(AuditCode code, String reason, LoggedEvent at, EngineEvent opener) {
        if (code == AuditCode.RELEASE_MISMATCH && at.event() instanceof BlocksReleased released) {
            return release(reason, released, at.before(), opener);
        }
        if (code == AuditCode.MATCH_MISMATCH) {
            RequestState request = at.event() instanceof PrefixMatched matched
                    ? at.before().heldRequest(matched.requestId()) : null;
            return match(reason, at.event(), request != null && request.skipsPrefixCache());
        }
        return reason;
    }

    /**
     * Safety: a block the request does not hold (one of another request, a freed window block, a null
     * entry, one released before), or any release while the request is live outside a preemption.
     */
    static String release(String reason, BlocksReleased released, EngineState before, EngineEvent opener) {
        RequestState request = before.heldRequest(released.requestId());
        Set<Integer> held = new HashSet<>();
        if (request != null) {
            for (int g = 0; g < request.tableCount(); g++) {
                for (Integer block : request.table(g)) {
                    if (block != null) {
                        held.add(block);
                    }
                }
            }
        }
        List<Integer> unheld = new ArrayList<>();
        for (Integer block : released.blockIds().flat()) {
            if (block == null || !held.contains(block)) {
                unheld.add(block);
            }
        }
        if (!unheld.isEmpty()) {
            return AuditCode.withCase(reason, RuleClass.SAFETY, "blocks " + unheld + " are not blocks the request holds");
        }
        RequestStatus status = request.status();
        boolean live = status == RequestStatus.WAITING || status == RequestStatus.LOADING || status == RequestStatus.RUNNING
                || status == RequestStatus.PREEMPTED;
        if (live && !(opener instanceof RequestPreempted)) {
            return AuditCode.withCase(reason, RuleClass.SAFETY, "the request is " + status
                    + " and this is no preemption, so its blocks are freed under a live request");
        }
        return AuditCode.withCase(reason, RuleClass.POLICY, "request " + released.requestId() + " (" + status
                + ") holds every block released, so only which of its blocks, or their order, differs");
    }

    /** Safety: a hit for a request that may not read the prefix cache (vllm-project/vllm#44585). */
    static String match(String reason, EngineEvent shown, boolean skipsReadingPrefixCache) {
        if (skipsReadingPrefixCache && shown instanceof PrefixMatched matched && matched.externalTokens() > 0) {
            return AuditCode.withCase(reason, RuleClass.SAFETY, "a hit of " + matched.externalTokens()
                    + " tokens for a request with skipReadingPrefixCache, whose KV must be computed");
        }
        return AuditCode.withCase(reason, RuleClass.POLICY, "another hit or deferral, which would also be safe");
    }
}
