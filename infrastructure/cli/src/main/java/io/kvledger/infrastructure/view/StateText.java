package io.kvledger.infrastructure.view;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.state.PrefixMatch;
import io.kvledger.infrastructure.view.StateView.FenceView;
import io.kvledger.infrastructure.view.StateView.JobView;
import io.kvledger.infrastructure.view.StateView.RequestView;
import io.kvledger.infrastructure.view.StateView.TierView;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The text of {@code kvledger replay}: a header of engine-wide figures, then one table per kind of thing. */
public final class StateText {

    private StateText() {
    }

    public static void print(StateView state, PrintWriter out) {
        out.println("after seq " + state.seq() + " (" + state.type() + "), " + state.events() + " events read");
        out.println("engine    " + config(state.config()));
        if (state.producer() != null) {
            out.println("producer  " + state.producer());
        }
        out.println("tier      " + tier(state.tier()));
        out.println("jobs      " + state.jobs().size() + " in flight, next id " + state.nextJobId()
                + ", stale below " + state.staleBelowJobId());
        out.println("requests  " + state.requests().size() + " live; retired " + state.retired().count() + " ("
                + state.retired().aborted() + " ABORTED, " + state.retired().finished() + " FINISHED)");
        if (!state.requests().isEmpty()) {
            out.println();
            // The one choice of form (contract 7.9): a GROUP column and a row per group only for a grouped log.
            if (state.config().isGrouped()) {
                GroupedText.requests(state.requests(), out);
            } else {
                TextTable table = new TextTable("REQUEST", "STATUS", ">c", ">n", ">O", ">S", ">s", ">BLOCKS", "TABLE", "JOBS");
                for (RequestView request : state.requests()) {
                    table.row(request.requestId(), request.status(), request.computed(), request.numTokens(),
                            request.tokenBound(), request.storableChunks().first(), request.cursor().first(),
                            request.blockTable().first().size(), Compact.list(request.blockTable().first()),
                            Compact.list(request.jobIds()));
                }
                table.print(out, "");
            }
        }
        if (!state.jobs().isEmpty()) {
            out.println();
            jobs(state.jobs(), out, "", true);
        }
        if (!state.fences().isEmpty()) {
            out.println();
            TextTable table = new TextTable("FENCED BY JOBS", ">BLOCKS", "BLOCK IDS");
            fencesByJobs(state.fences()).forEach((jobs, blocks) -> table.row(jobs, blocks.size(), Compact.list(blocks)));
            table.print(out, "");
        }
    }

    /** Fenced blocks grouped by the stores that fence them: one line per store, not per block. */
    static Map<List<Long>, List<Integer>> fencesByJobs(List<FenceView> fences) {
        Map<List<Long>, List<Integer>> groups = new LinkedHashMap<>();
        for (FenceView fence : fences) {
            groups.computeIfAbsent(fence.jobIds(), jobs -> new ArrayList<>()).add(fence.blockId());
        }
        return groups;
    }

    static void jobs(List<JobView> jobs, PrintWriter out, String indent, boolean withRequest) {
        boolean grouped = jobs.stream().anyMatch(job -> job.chunkIndices().groupCount() > 1);
        List<String> columns = new ArrayList<>(List.of(">JOB", "KIND", "REQUEST", "DONE", "GROUP", "CHUNKS", "BLOCKS", "KEYS"));
        if (!withRequest) {
            columns.remove("REQUEST");
        }
        if (!grouped) {
            columns.remove("GROUP");
        }
        TextTable table = new TextTable(columns.toArray(String[]::new));
        for (JobView job : jobs) {
            String done = job.completions() + "/" + job.workers() + (job.failed() ? " failed" : "");
            // A grouped job: one row per group (contract 7.9), the job's own columns on its first.
            for (int g = 0; g < job.chunkIndices().groupCount(); g++) {
                List<Object> row = new ArrayList<>();
                row.add(g == 0 ? job.jobId() : "");
                row.add(g == 0 ? job.kind() : "");
                if (withRequest) {
                    row.add(g == 0 ? job.requestId() : "");
                }
                row.add(g == 0 ? done : "");
                if (grouped) {
                    row.add("g" + g);
                }
                row.add(Compact.list(job.chunkIndices().group(g)));
                row.add(Compact.list(job.blockIds().group(g)));
                row.add(Compact.list(Compact.keys(job.keys().group(g))));
                table.row(row.toArray());
            }
        }
        table.print(out, indent);
    }

    static String config(EngineConfig config) {
        return "B=" + config.gpuBlockSize() + " F=" + config.blocksPerChunk() + " C=" + config.chunkTokens()
                + "  workers=" + config.workers() + "  releasePolicy=" + config.releasePolicy()
                + "  maxOffloadTokens=" + (config.maxOffloadTokens() == null ? "none" : config.maxOffloadTokens())
                + "  offloadPromptOnly=" + config.offloadPromptOnly()
                + (config.groups() == null ? "" : "  groups=" + GroupedText.groups(config));
    }

    static String tier(TierView tier) {
        return "held " + tier.held() + " of capacity " + tier.capacity() + " (ready " + tier.ready() + ", writing "
                + tier.writing() + "), pinned " + tier.pinned();
    }

    static String match(PrefixMatch match) {
        if (match == null) {
            return "none";
        }
        return "unused PrefixMatched: L=" + match.gpuHitTokens() + " externalTokens=" + match.externalTokens()
                + " hitChunks " + match.hitChunks();
    }
}
