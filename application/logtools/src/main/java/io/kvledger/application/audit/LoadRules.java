package io.kvledger.application.audit;

import io.kvledger.application.replay.CommandWindow;
import io.kvledger.application.replay.FoldStep;
import io.kvledger.application.replay.LoadDestination;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.PrefixMatch;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.TierChunk;
import java.util.List;

/**
 * Load jobs (contract section 4, Loads): LOAD_MISMATCH and LOAD_NOT_READY. A load copies the hit
 * chunks of the match its allocation used up into {@code blockTable[L/B .. (a+h)*F)}, and only from
 * chunks that are ready in the tier.
 */
final class LoadRules implements AuditRule {

    @Override
    public void check(FoldStep step, CommandWindow window, Findings findings) {
        if (step.event() instanceof LoadJobScheduled e) {
            String slice = sliceProblem(step.before(), e, window.allocation());
            if (slice != null) {
                findings.add(AuditCode.LOAD_MISMATCH, e.requestId(), "job " + e.jobId() + " " + slice);
            }
            ready(step.before(), e, findings);
        }
    }

    private static String sliceProblem(EngineState before, LoadJobScheduled e, CommandWindow.Allocation allocation) {
        if (e.keys().flat().size() != e.chunkIndices().flat().size()) {
            return "names " + e.chunkIndices().flat().size() + " chunks but " + e.keys().flat().size() + " keys";
        }
        if (allocation == null || !allocation.requestId().equals(e.requestId())) {
            return "is not made by an allocation of request " + e.requestId() + " just before it";
        }
        PrefixMatch match = allocation.match();
        if (match == null || match.externalTokens() == 0 || allocation.externalTokens() != match.externalTokens()) {
            return "follows an allocation with externalTokens " + allocation.externalTokens() + ", which is not the value of an unused "
                    + "PrefixMatched" + (match == null ? " (there is none)" : " (" + match.externalTokens() + ")");
        }
        if (!match.hitChunks().equals(e.chunkIndices())) {
            return "loads chunks " + e.chunkIndices() + ", but its match hit chunks " + match.hitChunks();
        }
        return destination(before.config(), before.heldRequest(e.requestId()), match, e);
    }

    /**
     * Group g's hit chunks go to {@code T_g[p_g .. e_g*F)} ({@link LoadDestination}), one path over the effective
     * groups. A log without groups keeps revision 4's wording (contract 7.0): "table" and "blocks", no group named.
     */
    private static String destination(EngineConfig config, RequestState request, PrefixMatch match, LoadJobScheduled e) {
        boolean perGroup = config.isGrouped();
        for (int g = 0; g < config.groupCount(); g++) {
            if (e.keys().group(g).size() != e.chunkIndices().group(g).size()) {
                return "names " + e.chunkIndices().group(g).size() + " chunks but " + e.keys().group(g).size() + " keys in group " + g;
            }
            int first = LoadDestination.first(config, g, match);
            int last = LoadDestination.end(config, g, match);
            List<Integer> table = request == null ? List.of() : request.table(g).asJava();
            if (last > table.size() || first > last) {
                return perGroup ? "loads up to position " + last + " of group " + g + ", but that table holds " + table.size() + " entries"
                        : "loads up to table position " + last + ", but the table holds " + table.size() + " blocks";
            }
            List<Integer> expected = table.subList(first, last);
            if (!expected.equals(e.blockIds().group(g))) {
                return perGroup ? "writes blocks " + e.blockIds().group(g) + " in group " + g + ", but T_" + g + "[" + first + ".." + last
                        + ") is " + expected : "writes blocks " + e.blockIds() + ", but table[" + first + ".." + last + ") is " + expected;
            }
        }
        return null;
    }

    private static void ready(EngineState before, LoadJobScheduled e, Findings findings) {
        List<String> keys = e.keys().flat(); // once: a grouped field's flat list is made anew by every call
        for (int i = 0; i < keys.size(); i++) {
            TierChunk chunk = before.tier().chunk(keys.get(i));
            if (chunk == null || !chunk.ready()) {
                List<Integer> chunks = e.chunkIndices().flat();
                String chunkName = i < chunks.size() ? "chunk " + chunks.get(i) : "key " + (i + 1);
                findings.add(AuditCode.LOAD_NOT_READY, e.requestId(), "job " + e.jobId() + " loads " + chunkName
                        + ", which the tier " + (chunk == null ? "does not hold" : "is still writing"));
                return;
            }
        }
    }
}
