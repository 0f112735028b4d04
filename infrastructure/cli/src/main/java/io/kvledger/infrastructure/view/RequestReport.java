package io.kvledger.infrastructure.view;

import io.kvledger.application.replay.LogFold;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import io.kvledger.infrastructure.view.StateView.FenceView;
import io.kvledger.infrastructure.view.StateView.JobView;
import io.kvledger.infrastructure.view.StateView.RequestView;
import java.util.List;

/**
 * One request after an event, as {@code kvledger replay --request ID} shows it (JSON schema
 * {@code kvledger.replay.request/1}).
 *
 * @param known   {@code LIVE} (in the state with all its figures), {@code RETIRED} (terminated and
 *                settled: the state keeps only its final status) or {@code UNKNOWN} (never registered)
 * @param status  its status; {@code null} when unknown
 * @param request its figures when live, else {@code null}
 * @param jobs    its jobs in flight
 * @param fences  fenced blocks whose fence is one of its jobs
 */
public record RequestReport(String schema, long seq, String type, String requestId, Known known,
                            RequestStatus status, RequestView request, List<JobView> jobs, List<FenceView> fences) {

    public static final String SCHEMA = "kvledger.replay.request/1";

    /** What the state knows of the request. */
    public enum Known { LIVE, RETIRED, UNKNOWN }

    public static RequestReport of(EngineState state, LogFold fold, long seq, String type, String requestId) {
        RequestState live = state.heldRequest(requestId);
        if (live == null) {
            RequestStatus retired = state.retired().getOrElse(requestId, null);
            return new RequestReport(SCHEMA, seq, type, requestId, retired == null ? Known.UNKNOWN : Known.RETIRED, retired,
                    null, List.of(), List.of());
        }
        List<JobView> jobs = live.jobIds().toJavaStream()
                .map(state::job)
                .filter(java.util.Objects::nonNull)
                .map(job -> StateView.job(state, fold, job))
                .toList();
        List<FenceView> fences = StateView.fences(state).stream()
                .filter(fence -> fence.jobIds().stream().anyMatch(live.jobIds()::contains))
                .toList();
        return new RequestReport(SCHEMA, seq, type, requestId, Known.LIVE, live.status(),
                StateView.request(state.config(), live), jobs, fences);
    }
}
