package io.kvledger.application.audit;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Offered chunks a producer left out of its store ({@code STORE_MISSING}, a policy difference of contract 9.2),
 * per request, so the audit can follow the producer when it stores them at a later offer. The fold moves the
 * cursor past an offer whatever its store held, so without this a later store of a held-back chunk (vLLM's
 * decode hold-back) would be judged a store of chunks nobody offered ({@code STORE_SLICE_MISMATCH}, safety):
 * one policy difference turned into a later safety finding. A producer that never stores them again is judged
 * as before (one {@code STORE_MISSING}, nothing more).
 */
final class HeldBackChunks {

    private final Map<String, BitSet> byRequest = new HashMap<>();

    boolean isEmpty() {
        return byRequest.isEmpty();
    }

    /** Whether the producer held back chunks of {@code requestId} it has not stored since. */
    boolean holdsBack(String requestId) {
        return byRequest.containsKey(requestId);
    }

    /** A reset returns every cursor to 0: nothing is held back past it. */
    void clear() {
        byRequest.clear();
    }

    /** After a store the log made without some of the offered chunks: remembers those chunks. */
    void remember(List<EngineEvent> derived, List<LoggedEvent> logged) {
        for (EngineEvent event : derived) {
            if (event instanceof StoreJobScheduled wanted) {
                for (int chunk : wanted.chunkIndices().flat()) {
                    if (chunk >= 0 && !storedInCommand(logged, wanted.requestId(), chunk)) {
                        byRequest.computeIfAbsent(wanted.requestId(), id -> new BitSet()).set(chunk);
                    }
                }
            }
        }
    }

    /** Forgets the chunks the log stored in this command. */
    void forgetStored(List<LoggedEvent> logged) {
        if (byRequest.isEmpty()) {
            return;
        }
        for (LoggedEvent line : logged) {
            if (line.event() instanceof StoreJobScheduled shown) {
                BitSet held = byRequest.get(shown.requestId());
                if (held != null) {
                    shown.chunkIndices().flat().stream().filter(chunk -> chunk >= 0).forEach(held::clear);
                    if (held.isEmpty()) {
                        byRequest.remove(shown.requestId());
                    }
                }
            }
        }
    }

    /**
     * The state before a command of {@code requestId} with its cursor back at the first chunk the producer held
     * back, so the offer holds it again; {@code null} when it held back none below the cursor. {@code before} is the
     * caller's own copy, which this may change: read the state returned, not {@code before}.
     */
    EngineState rewound(EngineState before, String requestId) {
        BitSet held = byRequest.get(requestId);
        RequestState request = before.heldRequest(requestId);
        // The one fork kept here: only a log without groups is followed. A grouped producer's held-back chunks are
        // per group (and an eagle group holds one back by rule, 7.4), so following them means a cursor per group
        // and new findings on grouped logs, a change of the audit's verdicts this class has never made.
        if (held == null || request == null || before.config().isGrouped()) {
            return null;
        }
        int first = held.nextSetBit(0);
        return first >= 0 && first < request.cursor() ? before.withRequest(request.withCursor(first)) : null;
    }

    private static boolean storedInCommand(List<LoggedEvent> logged, String requestId, int chunk) {
        for (LoggedEvent line : logged) {
            if (line.event() instanceof StoreJobScheduled shown && shown.requestId().equals(requestId)
                    && shown.chunkIndices().flat().contains(chunk)) {
                return true;
            }
        }
        return false;
    }
}
