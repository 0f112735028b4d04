package io.kvledger.infrastructure.view;

import io.kvledger.application.explain.LoadExplanation;
import io.kvledger.application.explain.LoadExplanation.LoadedChunk;
import io.kvledger.application.explain.StoreExplanation;
import io.kvledger.application.explain.StoreExplanation.OfferedChunk;
import io.kvledger.application.explain.StoreExplanation.Slice;
import io.kvledger.application.explain.StoreExplanation.Storable;
import io.kvledger.application.explain.StoreExplanation.TokenBound;
import java.io.PrintWriter;
import java.util.List;
import java.util.stream.IntStream;

/** The text of {@code kvledger explain}: each figure with the terms it is the least of. */
public final class ExplainText {

    private static final String LEAST = "   <- the least";

    private ExplainText() {
    }

    public static void print(StoreExplanation x, PrintWriter out) {
        out.println("job " + x.jobId() + ": store of request " + x.requestId() + ", scheduled at seq " + x.seq()
                + " (request " + requestState(x.requestState(), x.status()) + ")");
        if (x.groups() == null) {
            out.println("holds        " + slice(x.job(), "source blocks"));
        } else {
            GroupedExplainText.holds(x.groups(), "source blocks", out);
        }
        out.println();
        TokenBound o = x.bound();
        out.println("token bound  O = " + o.value());
        List<Integer> terms = IntStream.of(o.computed(), o.numTokens(),
                o.maxOffloadTokens() == null ? Integer.MAX_VALUE : o.maxOffloadTokens(),
                o.promptLength() == null ? Integer.MAX_VALUE : o.promptLength()).boxed().toList();
        int least = terms.indexOf(o.value());
        out.println("  c  computed tokens    " + o.computed() + (least == 0 ? LEAST : ""));
        out.println("  n  known tokens       " + o.numTokens() + (least == 1 ? LEAST : ""));
        out.println("  maxOffloadTokens      " + (o.maxOffloadTokens() == null ? "none (no limit)"
                : o.maxOffloadTokens() + (least == 2 ? LEAST : "")));
        out.println("  promptLength          " + (o.promptLength() == null ? "not a term (offloadPromptOnly is false)"
                : o.promptLength() + (least == 3 ? LEAST : "")));
        if (o.requestMaxOffloadTokens() != null) {
            // Contract 9.1: printed only for a request that has its own cap, so other explanations read as before.
            out.println("  the request's maxOffloadTokens  " + o.requestMaxOffloadTokens()
                    + (least < 0 && o.requestMaxOffloadTokens() == o.value() ? LEAST : ""));
        }
        if (x.groups() != null) {
            GroupedExplainText.store(x, out);
            tier(x, out);
            verdict(x.differences(), GroupedExplainText.rule(x.groups(), "the offered chunks the tier lacked", "from"), out);
            return;
        }
        Storable s = x.storable();
        out.println("storable     S = " + s.value() + "   with C = " + s.chunkTokens() + " tokens, F = " + s.blocksPerChunk());
        out.println("  floor(O/C)            floor(" + o.value() + "/" + s.chunkTokens() + ") = " + s.byTokens()
                + (s.value() == s.byTokens() ? LEAST : ""));
        out.println("  floor(table/F)        floor(" + s.tableBlocks() + "/" + s.blocksPerChunk() + ") = " + s.byBlocks()
                + (s.value() != s.byTokens() && s.value() == s.byBlocks() ? LEAST : ""));
        out.println("  keys                  " + s.byKeys()
                + (s.value() != s.byTokens() && s.value() != s.byBlocks() ? LEAST : ""));
        out.println("cursor       s = " + x.cursor() + (x.offered().isEmpty() ? ": nothing is offered (s >= S)"
                : ": chunks " + x.cursor() + ".." + (s.value() - 1) + " are offered"));
        tier(x, out);
        if (!x.offered().isEmpty()) {
            TextTable table = new TextTable(">CHUNK", "KEY", "BLOCKS", "TIER");
            for (OfferedChunk chunk : x.offered()) {
                String answer = chunk.tier().equals("LACKING") ? "lacking -> stored by a job"
                        : "already held (" + chunk.tier().toLowerCase() + "): touched, not stored";
                table.row(chunk.chunk(), Compact.key(chunk.key()), chunk.blocks(), answer);
            }
            table.print(out, "  ");
        }
        verdict(x.differences(), "the offered chunks the tier lacked, " + x.expected().chunkIndices()
                + ", from their blocks " + x.expected().blockIds(), out);
    }

    private static void tier(StoreExplanation x, PrintWriter out) {
        out.println("tier         capacity " + x.tier().capacity() + ", held " + x.tier().heldAtOffer() + " at the offer, "
                + (x.tier().evicted().isEmpty() ? "no evictions" : "evicted " + Compact.list(Compact.keys(x.tier().evicted())))
                + ", held " + x.tier().heldAfter() + " after");
    }

    public static void print(LoadExplanation x, PrintWriter out) {
        out.println("job " + x.jobId() + ": load of request " + x.requestId() + ", scheduled at seq " + x.seq()
                + " (request " + x.status() + ")");
        if (x.groups() == null) {
            out.println("holds        " + slice(x.job(), "destination blocks"));
        } else {
            GroupedExplainText.holds(x.groups(), "destination blocks", out);
        }
        out.println();
        LoadExplanation.Match m = x.match();
        if (m == null) {
            verdict(x.differences(), "", out);
            return;
        }
        out.println("match        PrefixMatched" + (m.seq() > 0 ? " at seq " + m.seq() : "")
                + ", used up by the BlocksAllocated at seq " + x.allocationSeq());
        out.println("  L  gpuHitTokens       " + m.gpuHitTokens());
        if (x.groups() != null) {
            out.println("  externalTokens        " + m.externalTokens() + "   (hit end N = L + externalTokens = "
                    + (m.gpuHitTokens() + m.externalTokens()) + ")");
            GroupedExplainText.load(x, out);
            out.println("on success   c = min(L + externalTokens, n - 1) = " + x.computedOnSuccess());
            verdict(x.differences(), GroupedExplainText.rule(x.groups(), "the match's hit chunks", "into"), out);
            return;
        }
        out.println("  a  floor(L/C)         " + m.firstChunk() + "   with C = " + m.chunkTokens());
        out.println("  h  hit chunks         " + m.hits() + "   " + m.hitChunks());
        out.println("  externalTokens        (a+h)*C - L = " + m.externalTokens());
        out.println("destination  table[L/B .. (a+h)*F) = table[" + x.firstBlock() + ".." + x.endBlock() + ") of "
                + Compact.list(x.table()) + " = " + x.expected().blockIds());
        TextTable table = new TextTable(">CHUNK", "KEY", "TIER", ">PINS");
        for (LoadedChunk chunk : x.chunks()) {
            table.row(chunk.chunk(), Compact.key(chunk.key()), chunk.tier().toLowerCase(), chunk.pins());
        }
        out.println("tier         the hit chunks, before this load pins them:");
        table.print(out, "  ");
        out.println("cursor       s = " + x.cursorBefore() + " -> max(s, a+h) = " + x.cursorAfter());
        out.println("on success   c = min(L + externalTokens, n - 1) = " + x.computedOnSuccess());
        verdict(x.differences(), "the match's hit chunks " + x.expected().chunkIndices() + " into "
                + x.expected().blockIds(), out);
    }

    private static void verdict(List<String> differences, String rule, PrintWriter out) {
        if (differences.isEmpty()) {
            out.println("verdict      follows the rules: " + rule);
            return;
        }
        out.println("verdict      differs from the rules (kvledger audit names the rule it breaks):");
        differences.forEach(difference -> out.println("  - " + difference));
    }

    private static String slice(Slice slice, String blocks) {
        return "chunks " + slice.chunkIndices() + "  keys " + Compact.list(Compact.keys(slice.keys())) + "  " + blocks
                + " " + slice.blockIds();
    }

    private static String requestState(String known, Object status) {
        return switch (known) {
            case "LIVE" -> String.valueOf(status);
            case "RETIRED" -> status + ", retired: no blocks, c = 0";
            default -> "unknown: never registered, no blocks, c = 0";
        };
    }
}
