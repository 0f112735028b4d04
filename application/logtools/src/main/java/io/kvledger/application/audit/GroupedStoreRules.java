package io.kvledger.application.audit;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.rules.GroupedOffer;
import io.kvledger.domain.rules.StoreBound;
import io.kvledger.domain.state.BlockTable;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;

/**
 * A store job of a grouped log (contract 7.8), group by group: the counts of 7.2 (STORE_SLICE_MISMATCH),
 * the bound with the eagle hold-back (STORE_BEYOND_BOUND), a source that is not the non-null entry of
 * {@code T_g} at that position, a freed block included, or a chunk past the table (STORE_BEYOND_ALLOCATED),
 * a chunk the alignment passes over (STORE_NOT_OFFERED) and a chunk stored twice (DUPLICATE_STORE).
 */
final class GroupedStoreRules {

    private GroupedStoreRules() {
    }

    /** Every check but the duplicate one, group by group; the first finding of a job is its only one. */
    static void check(EngineState before, RequestState request, StoreJobScheduled e, Findings findings) {
        EngineConfig config = before.config();
        int f = config.blocksPerChunk();
        for (int g = 0; g < config.groupCount(); g++) {
            int chunks = e.chunkIndices().group(g).size();
            int keys = e.keys().group(g).size();
            int blocks = e.blockIds().group(g).size();
            if (keys != chunks || blocks != (long) chunks * f) {
                findings.add(AuditCode.STORE_SLICE_MISMATCH, e.requestId(), "job " + e.jobId() + " names " + chunks
                        + " chunks, " + keys + " keys and " + blocks + " blocks in group " + g + ", but " + chunks
                        + " chunks need " + chunks + " keys and " + (long) chunks * f + " blocks (F=" + f + ")");
                return;
            }
        }
        bound(before, request, e, findings);
        allocated(before, request, e, findings);
    }

    private static void bound(EngineState before, RequestState request, StoreJobScheduled e, Findings findings) {
        EngineConfig config = before.config();
        int bound = request == null ? 0 : StoreBound.tokenBound(config, request);
        boolean decoding = request != null && bound > request.promptLength();
        for (int g = 0; g < config.groupCount(); g++) {
            KvCacheGroup group = config.group(g);
            int limit = bound / config.chunkTokens(g) - (decoding ? group.eagleChunks() : 0);
            List<Integer> past = e.chunkIndices().group(g).stream().filter(chunk -> chunk >= limit).toList();
            if (!past.isEmpty()) {
                String terms = request == null ? "c=0 (the state keeps no tokens for it)"
                        : "c=" + request.computed() + ", n=" + request.numTokens() + ", promptLength=" + request.promptLength()
                        + StoreRules.requestCap(request);
                String reason = "job " + e.jobId() + " stores chunks " + past + " of group " + g + ", at or past floor(O/C_g)"
                        + (group.eagle() ? " - x_g*[O > promptLength]" : "") + " = " + limit + " with O=" + bound + " of "
                        + Requests.named(before, e.requestId()) + ", where " + terms;
                findings.add(AuditCode.STORE_BEYOND_BOUND, e.requestId(), withCase(reason, config, request, e));
                return;
            }
        }
    }

    /**
     * The case of contract 9.2: safety when a chunk of some group reaches past the bound with {@code O = min(c, n)}
     * (the eagle hold-back included), policy when only a cap cuts it off.
     */
    private static String withCase(String reason, EngineConfig config, RequestState request, StoreJobScheduled e) {
        int computed = BoundCases.computedBound(request);
        boolean decoding = request != null && computed > request.promptLength();
        List<String> neverComputed = new ArrayList<>();
        for (int g = 0; g < config.groupCount() && g < e.chunkIndices().groupCount(); g++) {
            int limit = computed / config.chunkTokens(g) - (decoding ? config.group(g).eagleChunks() : 0);
            List<Integer> past = e.chunkIndices().group(g).stream().filter(chunk -> chunk >= limit).toList();
            if (!past.isEmpty()) {
                neverComputed.add("chunks " + past + " of group " + g);
            }
        }
        return BoundCases.withGroupedCase(reason, neverComputed, computed, BoundCases.capsBelow(config, request, computed));
    }

    private static void allocated(EngineState before, RequestState request, StoreJobScheduled e, Findings findings) {
        EngineConfig config = before.config();
        int f = config.blocksPerChunk();
        for (int g = 0; g < config.groupCount(); g++) {
            BlockTable table = request == null ? BlockTable.EMPTY : request.table(g);
            List<Integer> chunks = e.chunkIndices().group(g);
            List<Integer> blocks = e.blockIds().group(g);
            for (int i = 0; i < chunks.size(); i++) {
                int chunk = chunks.get(i);
                if (chunk < 0 || (long) (chunk + 1) * f > table.size()) {
                    findings.add(AuditCode.STORE_BEYOND_ALLOCATED, e.requestId(), "job " + e.jobId() + " stores chunk " + chunk
                            + " of group " + g + ", past the " + table.size() + " entries of that table of "
                            + Requests.named(before, e.requestId()));
                    return;
                }
                for (int k = 0; k < f; k++) {
                    Integer entry = table.get(chunk * f + k);
                    Integer source = blocks.get(i * f + k);
                    if (entry == null || !entry.equals(source)) {
                        findings.add(AuditCode.STORE_BEYOND_ALLOCATED, e.requestId(), "job " + e.jobId() + " reads block "
                                + source + " for chunk " + chunk + " of group " + g + ", but that entry of the table is "
                                + (entry == null ? "null (freed or never backed)" : "block " + entry));
                        return;
                    }
                }
            }
        }
        notOffered(config, request, e, findings);
    }

    /** A chunk the alignment of 7.4 passes over is never offered, so never stored. */
    private static void notOffered(EngineConfig config, RequestState request, StoreJobScheduled e, Findings findings) {
        if (request == null) {
            return;
        }
        int bound = StoreBound.tokenBound(config, request);
        boolean decoding = bound > request.promptLength();
        for (int g = 0; g < config.groupCount(); g++) {
            int alignment = config.alignment(g);
            if (alignment == 0) {
                continue;
            }
            int end = GroupedOffer.storableChunks(config, request, g, bound, decoding);
            int reach = config.windowChunks(g) + config.group(g).eagleChunks();
            List<Integer> skipped = new ArrayList<>();
            for (int chunk : e.chunkIndices().group(g)) {
                if (GroupedOffer.passedOver(chunk, end, alignment, reach)) {
                    skipped.add(chunk);
                }
            }
            if (!skipped.isEmpty()) {
                findings.add(AuditCode.STORE_NOT_OFFERED, e.requestId(), "job " + e.jobId() + " stores chunks " + skipped
                        + " of group " + g + ", which the alignment passes over (A_g=" + alignment + ": of each run of "
                        + alignment + " chunks only the last " + reach + " are stored, with S_g=" + end + ")");
                return;
            }
        }
    }

    /** Chunks stored again by their request since the last reset, per group; {@code stored} holds one set per group. */
    static void duplicates(BitSet[] stored, RequestState request, StoreJobScheduled e, Findings findings) {
        for (int g = 0; g < stored.length && g < e.chunkIndices().groupCount(); g++) {
            List<Integer> again = new ArrayList<>();
            for (int chunk : e.chunkIndices().group(g)) {
                if (chunk < 0) {
                    continue;
                }
                if (stored[g].get(chunk)) {
                    again.add(chunk);
                }
                stored[g].set(chunk);
            }
            if (!again.isEmpty()) {
                findings.add(AuditCode.DUPLICATE_STORE, e.requestId(), "job " + e.jobId() + " stores chunks " + again
                        + " of group " + g + ", which request " + request.requestId() + " already stored since the last reset");
                return;
            }
        }
    }
}
