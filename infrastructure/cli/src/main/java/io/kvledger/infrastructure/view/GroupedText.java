package io.kvledger.infrastructure.view;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.infrastructure.view.StateView.RequestView;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of {@code kvledger replay}'s text that a grouped engine adds (contract section 7.9): each
 * group's storable chunks, cursor and table (null entries as {@code null}) beside the request's own figures.
 */
final class GroupedText {

    private GroupedText() {
    }

    /** The requests table, one row per group of each request; the request's own columns on its first row. */
    static void requests(List<RequestView> requests, PrintWriter out) {
        TextTable table = new TextTable("REQUEST", "STATUS", ">c", ">n", ">O", "GROUP", ">S", ">s", ">BLOCKS", "TABLE",
                "JOBS");
        for (RequestView request : requests) {
            for (int g = 0; g < request.cursor().groupCount(); g++) {
                List<Integer> blocks = request.blockTable().group(g);
                if (g == 0) {
                    table.row(request.requestId(), request.status(), request.computed(), request.numTokens(),
                            request.tokenBound(), "g0", request.storableChunks().group(g), request.cursor().group(g),
                            blocks.size(), Compact.list(blocks), Compact.list(request.jobIds()));
                } else {
                    table.row("", "", "", "", "", "g" + g, request.storableChunks().group(g), request.cursor().group(g),
                            blocks.size(), Compact.list(blocks), "");
                }
            }
        }
        table.print(out, "");
    }

    /** {@code [g0 FULL B=16, g1 SLIDING_WINDOW B=4 w=8, g2 FULL B=16 eagle]}. */
    static String groups(EngineConfig config) {
        List<String> groups = new ArrayList<>(config.groupCount());
        for (int g = 0; g < config.groupCount(); g++) {
            KvCacheGroup group = config.group(g);
            groups.add("g" + g + " " + group.kind() + " B=" + group.blockSize()
                    + (group.isSliding() ? " w=" + group.slidingWindow() : "") + (group.eagle() ? " eagle" : ""));
        }
        return groups.toString();
    }

    /** For {@code replay --request}: per group, its storable chunks, cursor and table. */
    static void groupsOf(RequestView r, EngineConfig config, PrintWriter out) {
        boolean decoding = r.tokenBound() > r.promptLength();
        for (int g = 0; g < r.cursor().groupCount(); g++) {
            KvCacheGroup group = config.group(g);
            int chunk = config.chunkTokens(g);
            int storable = r.storableChunks().group(g);
            int cursor = r.cursor().group(g);
            List<Integer> table = r.blockTable().group(g);
            String holdBack = decoding && group.eagle() ? "-1 (eagle, decoding)" : "";
            out.println("group " + g + "   " + group.kind() + " B=" + group.blockSize() + " C=" + chunk
                    + (group.isSliding() ? " w=" + group.slidingWindow() : "") + (group.eagle() ? " eagle" : ""));
            out.println("  storable  S=" + storable + " = min(floor(O/C)" + holdBack + "=" + (r.tokenBound() / chunk
                    - (holdBack.isEmpty() ? 0 : 1)) + ", floor(table/F)=" + table.size() / config.blocksPerChunk()
                    + ", keys=" + r.chunkKeys().group(g) + ")");
            out.println("  cursor    s=" + cursor + (cursor < storable
                    ? " (chunks " + cursor + ".." + (storable - 1) + " not yet offered)" : ""));
            out.println("  table     " + table.size() + " blocks " + table + nulls(table));
        }
    }

    private static String nulls(List<Integer> table) {
        int nulls = 0;
        for (Integer block : table) {
            nulls += block == null ? 1 : 0;
        }
        return nulls == 0 ? "" : " (" + nulls + " null)";
    }
}
