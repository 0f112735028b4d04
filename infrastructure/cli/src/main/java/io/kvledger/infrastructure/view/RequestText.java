package io.kvledger.infrastructure.view;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.infrastructure.view.StateView.RequestView;
import java.io.PrintWriter;
import java.util.List;

/** The text of {@code kvledger replay --request ID}. */
public final class RequestText {

    private RequestText() {
    }

    public static void print(RequestReport report, EngineConfig config, PrintWriter out) {
        String at = "after seq " + report.seq() + " (" + report.type() + ")";
        switch (report.known()) {
            case UNKNOWN -> {
                out.println("request " + report.requestId() + " is unknown " + at + ": no RequestRegistered names it");
                return;
            }
            case RETIRED -> {
                out.println("request " + report.requestId() + " is retired " + at + ": it ended " + report.status()
                        + " and settled (no blocks, no jobs), so the state keeps only that status;"
                        + " see its history with --timeline");
                return;
            }
            default -> out.println("request " + report.requestId() + " " + at);
        }
        RequestView r = report.request();
        out.println("status    " + r.status() + " (registered #" + r.ordinal() + ")");
        out.println("tokens    n=" + r.numTokens() + " (prompt " + r.promptLength() + "), c=" + r.computed());
        if (r.controls() != null) {
            out.println("controls  " + controls(r.controls()));
        }
        out.println("bound     O=" + r.tokenBound() + " = " + boundTerms(r, config));
        // The one choice of form (contract 7.9): the figures are per group for every log (StateView.request);
        // a log without groups prints them as revision 4 did, with C and F on the storable line.
        if (config.isGrouped()) {
            GroupedText.groupsOf(r, config, out);
        } else {
            int storable = r.storableChunks().first();
            int cursor = r.cursor().first();
            List<Integer> table = r.blockTable().first();
            out.println("storable  S=" + storable + " = min(floor(O/C)=" + r.tokenBound() / config.chunkTokens()
                    + ", floor(table/F)=" + table.size() / config.blocksPerChunk() + ", keys=" + r.chunkKeys().first()
                    + ")  with C=" + config.chunkTokens() + ", F=" + config.blocksPerChunk());
            out.println("cursor    s=" + cursor + (cursor < storable
                    ? " (chunks " + cursor + ".." + (storable - 1) + " not yet offered)" : ""));
            out.println("table     " + table.size() + " blocks " + table);
        }
        out.println("match     " + StateText.match(r.pendingMatch()));
        if (report.jobs().isEmpty()) {
            out.println("jobs      none in flight");
        } else {
            out.println("jobs      " + report.jobs().size() + " in flight");
            StateText.jobs(report.jobs(), out, "  ", false);
        }
        StateText.fencesByJobs(report.fences()).forEach((jobs, blocks) ->
                out.println("fenced    blocks " + blocks + " by jobs " + jobs + " (until they end)"));
    }

    /** {@code min(c=.., n=..[, maxOffloadTokens=..][, promptLength=..])}: the terms of the token bound. */
    static String boundTerms(RequestView r, EngineConfig config) {
        StringBuilder terms = new StringBuilder("min(c=").append(r.computed()).append(", n=").append(r.numTokens());
        if (config.maxOffloadTokens() != null) {
            terms.append(", maxOffloadTokens=").append(config.maxOffloadTokens());
        }
        if (r.controls() != null && r.controls().maxOffloadTokens() != null) {
            terms.append(", the request's maxOffloadTokens=").append(r.controls().maxOffloadTokens());
        }
        if (config.offloadPromptOnly()) {
            terms.append(", promptLength=").append(r.promptLength());
        }
        return terms.append(")").toString();
    }

    /** The controls its RegisterRequest gave (contract 9.1), each only when given. */
    static String controls(io.kvledger.domain.state.RequestControls controls) {
        StringBuilder text = new StringBuilder();
        if (controls.maxOffloadTokens() != null) {
            text.append("maxOffloadTokens=").append(controls.maxOffloadTokens());
        }
        if (controls.maxLoadTokens() != null) {
            text.append(text.isEmpty() ? "" : ", ").append("maxLoadTokens=").append(controls.maxLoadTokens());
        }
        if (controls.skipReadingPrefixCache() != null) {
            text.append(text.isEmpty() ? "" : ", ").append("skipReadingPrefixCache=").append(controls.skipReadingPrefixCache());
        }
        return text.toString();
    }
}
