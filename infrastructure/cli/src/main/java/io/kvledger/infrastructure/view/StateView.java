package io.kvledger.infrastructure.view;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.kvledger.application.replay.LogFold;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.rules.GroupedOffer;
import io.kvledger.domain.rules.StoreBound;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.PrefixMatch;
import io.kvledger.domain.state.RequestControls;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import io.kvledger.domain.state.TierChunk;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The state after an event, as {@code kvledger replay} shows it: the JSON schema
 * {@code kvledger.replay/1} (docs/log-tools.md), and the model its text is drawn from. Field order is
 * the schema's order.
 *
 * @param seq     the seq of the last event folded
 * @param type    its type
 * @param events  events read up to it
 * @param producer what wrote the log, as its {@code EngineConfigured} names it (contract 9.3), or {@code null}
 */
public record StateView(String schema, long seq, String type, long events, EngineConfig config, TierView tier,
                        List<RequestView> requests, RetiredView retired, List<JobView> jobs, long nextJobId,
                        long staleBelowJobId, List<FenceView> fences,
                        @JsonInclude(JsonInclude.Include.NON_NULL) String producer) {

    public static final String SCHEMA = "kvledger.replay/1";

    /** Chunks the CPU tier holds, by kind; {@code held} counts against {@code capacity}. */
    public record TierView(int capacity, int held, int ready, int writing, int pinned) {
    }

    /**
     * A live (or terminated but unsettled) request.
     *
     * @param ordinal        registration order, from 0
     * @param cursor         {@code s_g} per group
     * @param tokenBound     {@code O}, computed tokens that may be stored
     * @param storableChunks {@code S_g} per group, the chunks an offer would reach
     * @param chunkKeys      chunks that have a key ({@code floor(n/C_g)}) per group
     * @param blockTable     {@code T_g} per group; {@code null} entries are null blocks (sliding groups)
     * @param pendingMatch   an unused PrefixMatched, or {@code null}
     * @param controls       the request's own controls (contract 9.1), or {@code null}: none given
     */
    public record RequestView(String requestId, long ordinal, RequestStatus status, int promptLength, int numTokens,
                              int computed, PerGroupFigure<Integer> cursor, int tokenBound,
                              PerGroupFigure<Integer> storableChunks, PerGroupFigure<Integer> chunkKeys,
                              PerGroupFigure<List<Integer>> blockTable, List<Long> jobIds, PrefixMatch pendingMatch,
                              @JsonInclude(JsonInclude.Include.NON_NULL) RequestControls controls) {
    }

    /** Terminated requests with nothing outstanding; only their final status is kept, so only counts are shown. */
    public record RetiredView(long count, long aborted, long finished) {
    }

    /**
     * A job in flight, with the keys as the log wrote them; its chunks, keys and blocks per group (the lists
     * themselves without groups, one per group in a grouped log: contract 7.9).
     *
     * @param completions completions so far, of {@code workers}
     */
    public record JobView(long jobId, String kind, String requestId, PerGroupFigure<List<Integer>> chunkIndices,
                          PerGroupFigure<List<String>> keys, PerGroupFigure<List<Integer>> blockIds, int completions,
                          int workers, boolean failed) {
    }

    /** A GPU block that stores of terminated requests still read. */
    public record FenceView(int blockId, List<Long> jobIds) {
    }

    public static StateView of(EngineState state, LogFold fold, long seq, String type, long events) {
        List<RequestView> requests = state.requests().values().stream()
                .sorted(Comparator.comparingLong(RequestState::ordinal))
                .map(request -> request(state.config(), request))
                .toList();
        List<JobView> jobs = state.jobs().values().stream().map(job -> job(state, fold, job)).toList();
        return new StateView(SCHEMA, seq, type, events, state.config(), tier(state.tier()), requests,
                retired(state), jobs, state.nextJobId(), state.staleBelowJobId(), fences(state), fold.producer());
    }

    public static RequestView request(EngineConfig config, RequestState request) {
        int bound = StoreBound.tokenBound(config, request);
        boolean decoding = bound > request.promptLength();
        int groups = request.tableCount();
        List<Integer> cursors = new ArrayList<>(groups);
        List<Integer> storable = new ArrayList<>(groups);
        List<Integer> keys = new ArrayList<>(groups);
        List<List<Integer>> tables = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            cursors.add(request.cursor(g));
            storable.add(GroupedOffer.storableChunks(config, request, g, bound, decoding));
            keys.add(request.keyCount(config, g));
            tables.add(request.table(g).toJavaList());
        }
        return new RequestView(request.requestId(), request.ordinal(), request.status(), request.promptLength(),
                request.numTokens(), request.computed(), new PerGroupFigure<>(cursors), bound,
                new PerGroupFigure<>(storable), new PerGroupFigure<>(keys), new PerGroupFigure<>(tables),
                request.jobIds().toJavaList(), request.pendingMatch(), request.controls());
    }

    public static JobView job(EngineState state, LogFold fold, Job job) {
        return GroupedJobs.view(state.config(), job, fold::logKeyOf, state.config().workers());
    }

    static TierView tier(CpuTier tier) {
        int ready = 0;
        int pinned = 0;
        for (TierChunk chunk : tier.chunkList()) {
            ready += chunk.ready() ? 1 : 0;
            pinned += chunk.pins() > 0 ? 1 : 0;
        }
        return new TierView(tier.capacity(), tier.size(), ready, tier.size() - ready, pinned);
    }

    private static RetiredView retired(EngineState state) {
        long aborted = state.retired().count(RequestStatus.ABORTED);
        return new RetiredView(state.retired().size(), aborted, state.retired().size() - aborted);
    }

    static List<FenceView> fences(EngineState state) {
        List<FenceView> fences = new ArrayList<>();
        for (Map.Entry<Integer, io.kvledger.domain.state.JobIds> fence : new TreeMap<>(state.fences().toJavaMap()).entrySet()) {
            fences.add(new FenceView(fence.getKey(), fence.getValue().toJavaList()));
        }
        return fences;
    }
}
