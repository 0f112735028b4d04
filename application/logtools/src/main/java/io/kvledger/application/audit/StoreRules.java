package io.kvledger.application.audit;

import io.kvledger.application.replay.CommandWindow;
import io.kvledger.application.replay.FoldStep;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.RequestEvent;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.rules.StoreBound;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Store jobs (contract section 4, Token bound, Storable chunks, Stores): STORE_SLICE_MISMATCH,
 * STORE_BEYOND_BOUND, STORE_BEYOND_ALLOCATED, DUPLICATE_STORE (a chunk stored again by its request, or
 * one the tier already holds from any request). Judged from the state before the store:
 * a request that is retired or unknown holds no blocks and has {@code c = 0}.
 */
final class StoreRules implements AuditRule {

    /** Chunks each live request has stored since the last reset. */
    private final Map<String, BitSet> storedByRequest = new HashMap<>();
    /** The same per group, for a grouped log (contract 7.8: a chunk is the pair (group, prefix)). */
    private final Map<String, BitSet[]> storedByRequestAndGroup = new HashMap<>();

    @Override
    public void check(FoldStep step, CommandWindow window, Findings findings) {
        if (!(step.event() instanceof StoreJobScheduled e)) {
            return;
        }
        EngineState before = step.before();
        RequestState request = before.heldRequest(e.requestId());
        if (before.config().isGrouped()) {
            GroupedStoreRules.check(before, request, e, findings);
            if (request != null) {
                BitSet[] stored = storedByRequestAndGroup.computeIfAbsent(request.requestId(),
                        id -> newSets(before.config().groupCount()));
                GroupedStoreRules.duplicates(stored, request, e, findings);
            }
            if (!findings.any()) {
                alreadyHeld(before, e, findings);
            }
            return;
        }
        sliceCounts(before.config(), e, findings);
        bound(before, request, e, findings);
        allocated(before, request, e, findings);
        if (request != null) {
            duplicates(request, e, findings);
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
            storedByRequestAndGroup.clear();
        } else if (step.event() instanceof RequestEvent e && storedByRequest.containsKey(e.requestId())
                && !step.after().requests().containsKey(e.requestId())) {
            // The cheap look-up first: most events are of requests that stored nothing since they last did.
            storedByRequest.remove(e.requestId());
        }
        if (!storedByRequestAndGroup.isEmpty() && step.event() instanceof RequestEvent e
                && storedByRequestAndGroup.containsKey(e.requestId()) && !step.after().requests().containsKey(e.requestId())) {
            storedByRequestAndGroup.remove(e.requestId());
        }
    }

    private static BitSet[] newSets(int groups) {
        BitSet[] sets = new BitSet[groups];
        for (int g = 0; g < groups; g++) {
            sets[g] = new BitSet();
        }
        return sets;
    }

    private static void sliceCounts(EngineConfig config, StoreJobScheduled e, Findings findings) {
        int chunks = e.chunkIndices().flat().size();
        int f = config.blocksPerChunk();
        if (e.keys().flat().size() != chunks || e.blockIds().flat().size() != (long) chunks * f) {
            findings.add(AuditCode.STORE_SLICE_MISMATCH, e.requestId(), "job " + e.jobId() + " names " + chunks
                    + " chunks, " + e.keys().flat().size() + " keys and " + e.blockIds().flat().size() + " blocks, but " + chunks
                    + " chunks need " + chunks + " keys and " + (long) chunks * f + " blocks (F=" + f + ")");
        }
    }

    private static void bound(EngineState before, RequestState request, StoreJobScheduled e, Findings findings) {
        EngineConfig config = before.config();
        int bound = request == null ? 0 : StoreBound.tokenBound(config, request);
        List<Integer> past = new ArrayList<>();
        for (int chunk : e.chunkIndices().flat()) {
            if ((long) (chunk + 1) * config.chunkTokens() > bound) {
                past.add(chunk);
            }
        }
        if (past.isEmpty()) {
            return;
        }
        String terms = request == null ? "c=0 (the state keeps no tokens for it)"
                : "c=" + request.computed() + ", n=" + request.numTokens() + requestCap(request);
        long end = (long) (past.get(past.size() - 1) + 1) * config.chunkTokens();
        int computed = BoundCases.computedBound(request);
        List<Integer> neverComputed = past.stream().filter(chunk -> (long) (chunk + 1) * config.chunkTokens() > computed).toList();
        String reason = "job " + e.jobId() + " stores chunks " + past + " (up to token " + end + ") past the token bound O="
                + bound + " of " + Requests.named(before, e.requestId()) + ", where " + terms;
        findings.add(AuditCode.STORE_BEYOND_BOUND, e.requestId(), BoundCases.withCase(reason,
                neverComputed.isEmpty() ? List.of() : List.of("chunks " + neverComputed), computed,
                BoundCases.capsBelow(config, request, computed)));
    }

    /** The request's own cap (contract 9.1) as a term of the bound, when it has one; nothing otherwise. */
    static String requestCap(RequestState request) {
        return request.maxOffloadTokens() == null ? "" : ", the request's maxOffloadTokens=" + request.maxOffloadTokens();
    }

    private static void allocated(EngineState before, RequestState request, StoreJobScheduled e, Findings findings) {
        int f = before.config().blocksPerChunk();
        List<Integer> table = request == null ? List.of() : request.blockTable().asJava();
        Set<Integer> held = new HashSet<>(table);
        List<Integer> uncovered = new ArrayList<>();
        for (int chunk : e.chunkIndices().flat()) {
            if (chunk < 0 || (long) (chunk + 1) * f > table.size()) {
                uncovered.add(chunk);
            }
        }
        List<Integer> foreign = e.blockIds().flat().stream().filter(block -> !held.contains(block)).toList();
        if (!uncovered.isEmpty() || !foreign.isEmpty()) {
            String what = !foreign.isEmpty() ? "reads blocks " + foreign : "stores chunks " + uncovered;
            findings.add(AuditCode.STORE_BEYOND_ALLOCATED, e.requestId(), "job " + e.jobId() + " " + what + ", but "
                    + Requests.named(before, e.requestId()) + " holds " + (table.isEmpty() ? "no blocks" : "blocks " + table));
            return;
        }
        if (e.blockIds().flat().size() == (long) e.chunkIndices().flat().size() * f) {
            misplaced(table, f, e, findings);
        }
    }

    /** Every block is the request's, but a chunk's source must be its own F blocks of the table. */
    private static void misplaced(List<Integer> table, int f, StoreJobScheduled e, Findings findings) {
        for (int i = 0; i < e.chunkIndices().flat().size(); i++) {
            int chunk = e.chunkIndices().flat().get(i);
            List<Integer> expected = table.subList(chunk * f, chunk * f + f);
            List<Integer> given = e.blockIds().flat().subList(i * f, i * f + f);
            if (!expected.equals(given)) {
                findings.add(AuditCode.STORE_SLICE_MISMATCH, e.requestId(), "job " + e.jobId() + " reads blocks " + given
                        + " for chunk " + chunk + ", whose blocks in the table are " + expected);
                return;
            }
        }
    }

    private void duplicates(RequestState request, StoreJobScheduled e, Findings findings) {
        BitSet stored = storedByRequest.computeIfAbsent(request.requestId(), id -> new BitSet());
        List<Integer> again = new ArrayList<>();
        for (int chunk : e.chunkIndices().flat()) {
            if (chunk < 0) {
                continue;
            }
            if (stored.get(chunk)) {
                again.add(chunk);
            }
            stored.set(chunk);
        }
        if (!again.isEmpty()) {
            findings.add(AuditCode.DUPLICATE_STORE, e.requestId(), "job " + e.jobId() + " stores chunks " + again
                    + ", which request " + request.requestId() + " already stored since the last reset");
        }
    }

    /** The tier keeps the offered chunks it does not hold: storing one it holds writes it twice. */
    private static void alreadyHeld(EngineState before, StoreJobScheduled e, Findings findings) {
        List<Integer> held = new ArrayList<>();
        for (int i = 0; i < e.keys().flat().size() && i < e.chunkIndices().flat().size(); i++) {
            if (before.tier().holds(e.keys().flat().get(i))) {
                held.add(e.chunkIndices().flat().get(i));
            }
        }
        if (!held.isEmpty()) {
            findings.add(AuditCode.DUPLICATE_STORE, e.requestId(), "job " + e.jobId() + " stores chunks " + held
                    + ", which the tier already holds (ready or being written), so the offer should have left them out");
        }
    }
}
