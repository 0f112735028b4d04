package io.kvledger.application.audit;

import io.kvledger.application.replay.CommandWindow;
import io.kvledger.application.replay.FoldStep;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.RequestEvent;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.rules.GroupedOffer;
import io.kvledger.domain.rules.StoreBound;
import io.kvledger.domain.state.BlockTable;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Store jobs (contract section 4, Token bound, Storable chunks, Stores; 7.8 per group): STORE_SLICE_MISMATCH,
 * STORE_BEYOND_BOUND, STORE_BEYOND_ALLOCATED, STORE_NOT_OFFERED, DUPLICATE_STORE (a chunk stored again by its
 * request, or one the tier already holds from any request). Judged from the state before the store: a request
 * that is retired or unknown holds no blocks and has {@code c = 0}.
 *
 * <p>One path over the effective groups (a log without {@code groups} has one {@code FULL} group). Without
 * groups (contract 7.0: sections 1-6 as written) a finding names no group and a store whose counts differ is
 * judged further; a grouped store whose counts differ (7.2) is judged by them alone. The one
 * rule the two forms judge differently is a store's sources: {@link #sourcesOfOneGroup} (section 4) against
 * {@link #sourcesPerGroup} (7.8), see there.
 */
final class StoreRules implements AuditRule {

    /** Chunks each live request has stored since the last reset, one set per group (7.8: a chunk is the pair (group, prefix)). */
    private final Map<String, BitSet[]> storedByRequest = new HashMap<>();

    @Override
    public void check(FoldStep step, CommandWindow window, Findings findings) {
        if (!(step.event() instanceof StoreJobScheduled e)) {
            return;
        }
        EngineState before = step.before();
        EngineConfig config = before.config();
        RequestState request = before.heldRequest(e.requestId());
        boolean perGroup = config.isGrouped();
        boolean countsDiffer = sliceCounts(config, e, perGroup, findings);
        if (!(countsDiffer && perGroup)) {
            bound(before, request, e, perGroup, findings);
            if (perGroup ? !sourcesPerGroup(before, request, e, findings) : !sourcesOfOneGroup(before, request, e, findings)) {
                notOffered(config, request, e, findings);
            }
        }
        if (request != null) {
            BitSet[] stored = storedByRequest.computeIfAbsent(request.requestId(), id -> newSets(config.groupCount()));
            duplicates(stored, request, e, perGroup, findings);
        }
        if (!findings.any()) {
            alreadyHeld(before, e, findings);
        }
    }

    /** Forgets requests that left the live map, and everything at a reset. */
    @Override
    public void observe(FoldStep step) {
        if (step.event() instanceof CacheReset) {
            storedByRequest.clear();
        } else if (step.event() instanceof RequestEvent e && storedByRequest.containsKey(e.requestId())
                && !step.after().requests().containsKey(e.requestId())) {
            // The cheap look-up first: most events are of requests that stored nothing since they last did.
            storedByRequest.remove(e.requestId());
        }
    }

    private static BitSet[] newSets(int groups) {
        BitSet[] sets = new BitSet[groups];
        for (int g = 0; g < groups; g++) {
            sets[g] = new BitSet();
        }
        return sets;
    }

    /** " in group g" / " of group g" where a grouped log's finding names its group; nothing without groups. */
    private static String group(String preposition, int g, boolean perGroup) {
        return perGroup ? " " + preposition + " group " + g : "";
    }

    /** The counts of 7.2 per group (section 4's counts with one group); whether it found a mismatch. */
    private static boolean sliceCounts(EngineConfig config, StoreJobScheduled e, boolean perGroup, Findings findings) {
        int f = config.blocksPerChunk();
        for (int g = 0; g < config.groupCount() && g < e.chunkIndices().groupCount(); g++) {
            int chunks = e.chunkIndices().group(g).size();
            int keys = e.keys().group(g).size();
            int blocks = e.blockIds().group(g).size();
            if (keys != chunks || blocks != (long) chunks * f) {
                findings.add(AuditCode.STORE_SLICE_MISMATCH, e.requestId(), "job " + e.jobId() + " names " + chunks
                        + " chunks, " + keys + " keys and " + blocks + " blocks" + group("in", g, perGroup) + ", but " + chunks
                        + " chunks need " + chunks + " keys and " + (long) chunks * f + " blocks (F=" + f + ")");
                return true;
            }
        }
        return false;
    }

    /**
     * The bound of 7.4 per group: a chunk {@code i >= floor(O/C_g) - x_g*[O > promptLength]} (section 4's
     * {@code (i+1)*C > O} with one group); the first group with such a chunk is named. The case (9.2) looks
     * at every group: an eagle group's hold-back at {@code O = min(c, n)} may reach below its hold-back at {@code O}.
     */
    private static void bound(EngineState before, RequestState request, StoreJobScheduled e, boolean perGroup,
                                 Findings findings) {
        EngineConfig config = before.config();
        int bound = request == null ? 0 : StoreBound.tokenBound(config, request);
        int computed = BoundCases.computedBound(request);
        for (int g = 0; g < config.groupCount() && g < e.chunkIndices().groupCount(); g++) {
            List<Integer> past = pastBound(config, request, g, bound, e);
            if (past.isEmpty()) {
                continue;
            }
            List<String> neverComputed = new ArrayList<>();
            for (int h = 0; h < config.groupCount() && h < e.chunkIndices().groupCount(); h++) {
                List<Integer> chunks = pastBound(config, request, h, computed, e);
                if (!chunks.isEmpty()) {
                    neverComputed.add("chunks " + chunks + group("of", h, perGroup));
                }
            }
            List<String> caps = BoundCases.capsBelow(config, request, computed);
            if (!perGroup) {
                // Section 4's wording: the chunks, the tokens they reach and the terms of O.
                String terms = request == null ? "c=0 (the state keeps no tokens for it)"
                        : "c=" + request.computed() + ", n=" + request.numTokens() + requestCap(request);
                long end = (long) (past.get(past.size() - 1) + 1) * config.chunkTokens(g);
                String reason = "job " + e.jobId() + " stores chunks " + past + " (up to token " + end + ") past the token bound O="
                        + bound + " of " + Requests.named(before, e.requestId()) + ", where " + terms;
                findings.add(AuditCode.STORE_BEYOND_BOUND, e.requestId(), BoundCases.withCase(reason, neverComputed, computed, caps));
                return;
            }
            KvCacheGroup kind = config.group(g);
            String terms = request == null ? "c=0 (the state keeps no tokens for it)"
                    : "c=" + request.computed() + ", n=" + request.numTokens() + ", promptLength=" + request.promptLength()
                    + requestCap(request);
            String reason = "job " + e.jobId() + " stores chunks " + past + " of group " + g + ", at or past floor(O/C_g)"
                    + (kind.eagle() ? " - x_g*[O > promptLength]" : "") + " = " + limit(config, request, g, bound) + " with O="
                    + bound + " of " + Requests.named(before, e.requestId()) + ", where " + terms;
            findings.add(AuditCode.STORE_BEYOND_BOUND, e.requestId(), BoundCases.withGroupedCase(reason, neverComputed, computed, caps));
            return;
        }
    }

    /** {@code floor(O/C_g) - x_g*[O > promptLength]}: the first chunk of group g past the bound {@code o}. */
    private static int limit(EngineConfig config, RequestState request, int g, int o) {
        boolean decoding = request != null && o > request.promptLength();
        return o / config.chunkTokens(g) - (decoding ? config.eagleChunks(g) : 0);
    }

    private static List<Integer> pastBound(EngineConfig config, RequestState request, int g, int o, StoreJobScheduled e) {
        int limit = limit(config, request, g, o);
        List<Integer> past = new ArrayList<>();
        for (int chunk : e.chunkIndices().group(g)) {
            if (chunk >= limit) {
                past.add(chunk);
            }
        }
        return past;
    }

    /** The request's own cap (contract 9.1) as a term of the bound, when it has one; nothing otherwise. */
    static String requestCap(RequestState request) {
        return request.maxOffloadTokens() == null ? "" : ", the request's maxOffloadTokens=" + request.maxOffloadTokens();
    }

    /**
     * The sources the table does not hold, in their order. A source at its own chunk's place in the table is held
     * without a look further: only the others are looked for anywhere in it (a set of the table, made then), so a
     * store of a long request does not cost a set of its whole table.
     */
    private static List<Integer> foreign(List<Integer> table, List<Integer> chunks, List<Integer> sources, int f) {
        List<Integer> foreign = List.of();
        Set<Integer> held = null;
        for (int k = 0; k < sources.size(); k++) {
            Integer block = sources.get(k);
            int chunk = k / f < chunks.size() ? chunks.get(k / f) : -1;
            long at = (long) chunk * f + k % f;
            if (chunk >= 0 && at < table.size() && Objects.equals(table.get((int) at), block)) {
                continue;
            }
            if (held == null) {
                held = new HashSet<>(table);
            }
            if (!held.contains(block)) {
                if (foreign.isEmpty()) {
                    foreign = new ArrayList<>();
                }
                foreign.add(block);
            }
        }
        return foreign;
    }

    /**
     * Section 4's sources, for a log without groups: a block the request does not hold, or a chunk past its table, is
     * STORE_BEYOND_ALLOCATED; a source that is the request's but not the chunk's own {@code F} blocks is
     * STORE_SLICE_MISMATCH. 7.8 makes both STORE_BEYOND_ALLOCATED and judges position by position
     * ({@link #sourcesPerGroup}); the two codes and wordings are the contract's, so this stays the one fork of
     * the rule. Whether it found one.
     */
    private static boolean sourcesOfOneGroup(EngineState before, RequestState request, StoreJobScheduled e, Findings findings) {
        int f = before.config().blocksPerChunk();
        List<Integer> table = request == null ? List.of() : request.blockTable().asJava();
        List<Integer> uncovered = new ArrayList<>();
        for (int chunk : e.chunkIndices().flat()) {
            if (chunk < 0 || (long) (chunk + 1) * f > table.size()) {
                uncovered.add(chunk);
            }
        }
        List<Integer> foreign = foreign(table, e.chunkIndices().flat(), e.blockIds().flat(), f);
        if (!uncovered.isEmpty() || !foreign.isEmpty()) {
            String what = !foreign.isEmpty() ? "reads blocks " + foreign : "stores chunks " + uncovered;
            findings.add(AuditCode.STORE_BEYOND_ALLOCATED, e.requestId(), "job " + e.jobId() + " " + what + ", but "
                    + Requests.named(before, e.requestId()) + " holds " + (table.isEmpty() ? "no blocks" : "blocks " + table));
            return true;
        }
        if (e.blockIds().flat().size() != (long) e.chunkIndices().flat().size() * f) {
            return false;
        }
        // Every block is the request's, but a chunk's source must be its own F blocks of the table.
        for (int i = 0; i < e.chunkIndices().flat().size(); i++) {
            int chunk = e.chunkIndices().flat().get(i);
            List<Integer> expected = table.subList(chunk * f, chunk * f + f);
            List<Integer> given = e.blockIds().flat().subList(i * f, i * f + f);
            if (!expected.equals(given)) {
                findings.add(AuditCode.STORE_SLICE_MISMATCH, e.requestId(), "job " + e.jobId() + " reads blocks " + given
                        + " for chunk " + chunk + ", whose blocks in the table are " + expected);
                return true;
            }
        }
        return false;
    }

    /**
     * 7.8's sources, group by group: a chunk past the table, or a source that is not the non-null entry of
     * {@code T_g} at that position (a freed block included), is STORE_BEYOND_ALLOCATED. Whether it found one.
     */
    private static boolean sourcesPerGroup(EngineState before, RequestState request, StoreJobScheduled e, Findings findings) {
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
                    return true;
                }
                for (int k = 0; k < f; k++) {
                    Integer entry = table.get(chunk * f + k);
                    Integer source = blocks.get(i * f + k);
                    if (entry == null || !entry.equals(source)) {
                        findings.add(AuditCode.STORE_BEYOND_ALLOCATED, e.requestId(), "job " + e.jobId() + " reads block "
                                + source + " for chunk " + chunk + " of group " + g + ", but that entry of the table is "
                                + (entry == null ? "null (freed or never backed)" : "block " + entry));
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** A chunk the alignment of 7.4 passes over is never offered, so never stored (no group without a window has an alignment). */
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
    private static void duplicates(BitSet[] stored, RequestState request, StoreJobScheduled e, boolean perGroup,
                                   Findings findings) {
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
                        + group("of", g, perGroup) + ", which request " + request.requestId() + " already stored since the last reset");
                return;
            }
        }
    }

    /** The tier keeps the offered chunks it does not hold: storing one it holds writes it twice. */
    private static void alreadyHeld(EngineState before, StoreJobScheduled e, Findings findings) {
        List<Integer> held = new ArrayList<>();
        List<String> keys = e.keys().flat(); // once: a grouped field's flat list is made anew by every call
        List<Integer> chunks = e.chunkIndices().flat();
        for (int i = 0; i < keys.size() && i < chunks.size(); i++) {
            if (before.tier().holds(keys.get(i))) {
                held.add(chunks.get(i));
            }
        }
        if (!held.isEmpty()) {
            findings.add(AuditCode.DUPLICATE_STORE, e.requestId(), "job " + e.jobId() + " stores chunks " + held
                    + ", which the tier already holds (ready or being written), so the offer should have left them out");
        }
    }
}
