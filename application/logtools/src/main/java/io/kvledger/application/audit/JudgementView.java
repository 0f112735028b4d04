package io.kvledger.application.audit;

import io.kvledger.application.finding.Finding;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestEvent;
import io.kvledger.domain.rules.GroupedOffer;
import io.kvledger.domain.rules.StoreBound;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.TierChunk;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * What {@code kvledger audit --explain SEQ} shows of the command that holds event SEQ: the state before
 * it, the events the rules derive and the events the log shows, row by row, and the findings of that
 * command. Plain values, so it prints as text or as JSON ({@code kvledger.audit.explain/1}).
 */
public record JudgementView(String schema, long seq, long commandSeq, String command, List<Finding> findings,
                            RequestBefore request, TierBefore tier, List<Row> rows, String verdict) {

    public static final String SCHEMA = "kvledger.audit.explain/1";

    /**
     * The request of the command, before it; {@code null} when the command names none or it is not live.
     * {@code cursor}, {@code storableChunks} and {@code blockTable} are group 0's; in a grouped log
     * {@code groups} holds every group's (contract 7.9), else it is {@code null}.
     */
    public record RequestBefore(String requestId, String status, int computed, int numTokens, int cursor, int tokenBound,
                                int storableChunks, List<Integer> blockTable, List<Long> jobIds, String pendingMatch,
                                List<GroupBefore> groups) {
    }

    /** One KV cache group of the request before the command: {@code s_g}, {@code S_g} and {@code T_g} (null entries are null blocks). */
    public record GroupBefore(int group, int cursor, int storableChunks, List<Integer> blockTable) {
    }

    public record TierBefore(int capacity, int held, long ready, long writing, long pinned, long nextJobId,
                             long staleBelowJobId) {
    }

    /** One row: the derived event and the logged event at this position (either may be absent). */
    public record Row(Long seq, String derived, String logged, boolean same) {
    }

    public static JudgementView of(long seq, CommandJudgement judgement, List<Finding> findings, UnaryOperator<String> logKey) {
        EngineState before = judgement.before();
        LoggedEvent opener = judgement.logged().stream().filter(l -> !(l.event() instanceof io.kvledger.domain.event.FlushRequired))
                .findFirst().orElse(judgement.logged().get(0));
        List<Row> rows = new ArrayList<>();
        int n = Math.max(judgement.derived().size(), judgement.logged().size());
        for (int i = 0; i < n; i++) {
            EngineEvent derived = i < judgement.derived().size() ? judgement.derived().get(i) : null;
            LoggedEvent logged = i < judgement.logged().size() ? judgement.logged().get(i) : null;
            boolean same = derived != null && logged != null && Differences.same(derived, logged.event());
            rows.add(new Row(logged == null ? null : logged.seq(), derived == null ? null : EventText.of(derived, logKey),
                    logged == null ? null : EventText.of(logged.logEvent()), same));
        }
        String command = judgement.command() == null ? "(not re-derived: " + opener.event().getClass().getSimpleName() + ")"
                : judgement.command().toString();
        String verdict;
        if (judgement.decision() == null && judgement.command() == null && judgement.finding() == null) {
            verdict = "not re-derived: the log records no command the rules decide here";
        } else if (judgement.differsAt() < 0) {
            verdict = "the log shows what the rules derive";
        } else {
            verdict = "differs from the rules at row " + (judgement.differsAt() + 1);
        }
        return new JudgementView(SCHEMA, seq, opener.seq(), command, List.copyOf(findings),
                before == null ? null : request(before, opener.event()), before == null ? null : tier(before), rows, verdict);
    }

    private static RequestBefore request(EngineState before, EngineEvent opener) {
        if (!(opener instanceof RequestEvent e) || before.liveRequest(e.requestId()) == null) {
            return null;
        }
        RequestState r = before.liveRequest(e.requestId());
        EngineConfig config = before.config();
        int bound = StoreBound.tokenBound(config, r);
        List<GroupBefore> groups = null;
        // The form only: the request's own figures are group 0's for every log; a grouped log's view adds a line per
        // group (contract 7.9), and one without groups keeps revision 4's view, without "groups".
        if (config.isGrouped()) {
            groups = new ArrayList<>(config.groupCount());
            for (int g = 0; g < config.groupCount(); g++) {
                groups.add(new GroupBefore(g, r.cursor(g), GroupedOffer.storableChunks(config, r, g, bound, bound > r.promptLength()),
                        r.table(g).asJava()));
            }
        }
        return new RequestBefore(r.requestId(), r.status().name(), r.computed(), r.numTokens(), r.cursor(),
                bound, StoreBound.storableChunks(config, r), r.blockTable().asJava(),
                r.jobIds().toJavaList(), r.pendingMatch() == null ? null : r.pendingMatch().toString(), groups);
    }

    private static TierBefore tier(EngineState before) {
        long ready = 0;
        long pinned = 0;
        for (TierChunk chunk : before.tier().chunkList()) {
            ready += chunk.ready() ? 1 : 0;
            pinned += chunk.pins() > 0 ? 1 : 0;
        }
        int held = before.tier().size();
        return new TierBefore(before.tier().capacity(), held, ready, held - ready, pinned, before.nextJobId(),
                before.staleBelowJobId());
    }
}
