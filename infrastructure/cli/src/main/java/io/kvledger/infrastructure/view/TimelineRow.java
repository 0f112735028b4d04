package io.kvledger.infrastructure.view;

import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * One event of a request's timeline with the (previous, current) pair of the request it made
 * ({@code kvledger replay --request ID --timeline}; JSON schema {@code kvledger.replay.timeline/1}).
 *
 * @param before the request before the event; {@code null} when it was not yet registered
 * @param after  the request after it
 * @param fields the event's own fields, compacted (long lists cut, keys shortened)
 */
public record TimelineRow(long seq, String type, Snapshot before, Snapshot after, String fields) {

    /**
     * The figures of a request a timeline follows. A retired request keeps only its status, so its
     * figures are {@code null}. {@code cursor} and {@code tableSize} are per group (contract 7.9): the value
     * itself without groups, one per group in a grouped log.
     */
    public record Snapshot(RequestStatus status, boolean retired, Integer computed, Integer numTokens,
                           PerGroupFigure<Integer> cursor, PerGroupFigure<Integer> tableSize, List<Long> jobIds) {

        /** {@code null} when the state does not know the request. */
        public static Snapshot of(EngineState state, String requestId) {
            if (state == null) {
                return null;
            }
            RequestState live = state.heldRequest(requestId);
            if (live != null) {
                List<Integer> cursors = new ArrayList<>(live.tableCount());
                List<Integer> sizes = new ArrayList<>(live.tableCount());
                for (int g = 0; g < live.tableCount(); g++) {
                    cursors.add(live.cursor(g));
                    sizes.add(live.table(g).size());
                }
                return new Snapshot(live.status(), false, live.computed(), live.numTokens(), new PerGroupFigure<>(cursors),
                        new PerGroupFigure<>(sizes), live.jobIds().toJavaList());
            }
            RequestStatus retired = state.retired().getOrElse(requestId, null);
            return retired == null ? null : new Snapshot(retired, true, null, null, null, null, null);
        }
    }
}
