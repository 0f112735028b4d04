package io.kvledger.domain;

import io.kvledger.containers.StateHashMap;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.rules.GroupedOffer;
import io.kvledger.domain.state.BlockCounts;
import io.kvledger.domain.state.BlockTable;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.JobIds;
import io.kvledger.domain.state.PrefixMatch;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * The fold of the request's tables (contract section 4; section 7 per group): one table and cursor per group
 * (a config without groups is one {@code FULL} group), null entries, the blocks sliding-window tables hold and
 * the fences of freed window blocks. With one group every loop runs once and nothing is kept per group.
 */
final class TableFold {

    private TableFold() {
    }

    static EngineState allocated(EngineState state, RequestState request, BlocksAllocated e) {
        EngineConfig config = state.config();
        RequestState next = request;
        StateHashMap<Integer, Integer> holds = state.windowHolds();
        for (int g = 0; g < Math.min(config.groupCount(), e.blockIds().groupCount()); g++) {
            List<Integer> added = e.blockIds().group(g);
            next = next.withTable(g, next.table(g).appendAll(added));
            if (config.isSliding(g)) {
                holds = hold(holds, added, 1);
            }
        }
        RequestStatus status = request.isTerminal() ? request.status() : RequestStatus.RUNNING;
        // A load's LoadJobScheduled follows at once and reads the match it uses (its hit end need not be a chunk end).
        next = next.withStatus(status).withPendingMatch(e.externalTokens() > 0 ? request.pendingMatch() : null);
        return state.withRequest(next).withWindowHolds(holds);
    }

    /**
     * Freed entries of a sliding-window table become null; a store still reading a freed block fences it, under
     * either policy.
     */
    static EngineState freed(EngineState state, RequestState request, WindowBlocksFreed e) {
        RequestState next = request;
        StateHashMap<Integer, Integer> holds = state.windowHolds();
        StateHashMap<Integer, JobIds> fences = state.fences();
        for (int g = 0; g < Math.min(request.tableCount(), e.blockIds().groupCount()); g++) {
            if (!state.config().isSliding(g)) {
                continue; // only a sliding window frees; without one the event is ignored (contract 7.8)
            }
            BlockTable table = next.table(g);
            for (Integer block : e.blockIds().group(g)) {
                int position = table.indexOf(block);
                if (position < 0) {
                    continue;
                }
                table = table.update(position, (Integer) null);
                holds = hold(holds, List.of(block), -1);
                for (long jobId : request.jobIds()) {
                    Job job = state.job(jobId);
                    if (job != null && job.isStore() && job.blockIds().contains(block)) {
                        fences = fences.put(block, fences.getOrElse(block, JobIds.EMPTY).add(jobId));
                    }
                }
            }
            next = next.withTable(g, table);
        }
        return state.withRequest(next).withWindowHolds(holds).withFences(fences);
    }

    /** Released blocks leave their group's table; a table left with null entries only is emptied. */
    static EngineState released(EngineState state, RequestState request, BlocksReleased e) {
        EngineConfig config = state.config();
        RequestState next = request;
        StateHashMap<Integer, Integer> holds = state.windowHolds();
        for (int g = 0; g < Math.min(request.tableCount(), e.blockIds().groupCount()); g++) {
            List<Integer> gone = e.blockIds().group(g);
            BlockTable table = BlockCounts.remove(next.table(g), gone);
            next = next.withTable(g, table.hasBlock() ? table : BlockTable.EMPTY);
            if (config.isSliding(g)) {
                holds = hold(holds, gone, -1);
            }
        }
        return RequestFold.settle(state.withRequest(next).withWindowHolds(holds), e.requestId());
    }

    /**
     * Preemption keeps every cursor. A grouped table is emptied here (contract 7.7: the preemption releases and
     * empties every table); a table of one group without the grouped rules (contract 7.0) keeps its blocks until
     * the {@code BlocksReleased} that follows takes them out, so a log that releases it only in part keeps the
     * rest, as revision 4's fold did (the audits of foreign logs keep their findings).
     */
    static RequestState preempted(EngineConfig config, RequestState request) {
        if (!config.isGrouped()) {
            return request;
        }
        RequestState next = request;
        for (int g = 0; g < request.tableCount(); g++) {
            next = next.withTable(g, BlockTable.EMPTY);
        }
        return next;
    }

    /**
     * A store moves each cursor to {@code max(s_g, S_g, its last chunk + 1)} and touches the offer, group by group,
     * after its chunks are written.
     */
    static EngineState storeScheduled(EngineState state, RequestState request, StoreJobScheduled e, Job job) {
        EngineConfig config = state.config();
        // The offer's ends and keys; which chunks the tier lacks is the job's own (its keys), so no tier is read.
        int[] ends = GroupedOffer.ends(config, request);
        RequestState next = request;
        CpuTier tier = state.tier();
        // Chunks only a foreign log stores past the offer: revision 4's fold (one group, contract 7.0) touches them
        // as offered, the grouped fold only writes them; each keeps its order of recency, so audits keep findings.
        boolean touchesPastTheOffer = !config.isGrouped();
        for (int g = 0; g < request.tableCount(); g++) {
            int cursor = request.cursor(g);
            int offerEnd = ends == null ? cursor : Math.max(cursor, ends[g]);
            int end = offerEnd;
            if (g < e.chunkIndices().groupCount() && !e.chunkIndices().group(g).isEmpty()) {
                List<Integer> stored = e.chunkIndices().group(g);
                end = Math.max(end, stored.get(stored.size() - 1) + 1);
            }
            next = next.withCursor(g, end);
            List<String> touched = ends == null ? List.of() : GroupedOffer.offeredKeys(config, request, g, ends[g]);
            if (end > offerEnd && touchesPastTheOffer) {
                touched = new ArrayList<>(touched);
                for (int chunk = offerEnd; chunk < Math.min(end, request.keyCount(config, g)); chunk++) {
                    touched.add(request.key(config, g, chunk));
                }
            }
            tier = g == 0 ? tier.writingThenTouching(e.keys().flat(), touched) : tier.touch(touched);
        }
        next = next.withJobIds(request.jobIds().add(e.jobId()));
        EngineState after = state.withRequest(next).withTier(tier)
                .withJobs(state.jobs().put(e.jobId(), job), Math.max(state.nextJobId(), e.jobId() + 1));
        // A store made by the terminal command itself is fenced like the ones before it.
        return request.isTerminal() ? JobFold.fenceStores(after, after.heldRequest(e.requestId())) : after;
    }

    /**
     * A load makes every {@code s_g = max(s_g, e_g)}, {@code e_g = ceil(N/C_g)} for the hit end {@code N = L +
     * externalTokens}: the match's when the load reads its hit chunks, else (a foreign log) what group 0's
     * chunks reach past {@code L}.
     */
    static EngineState loadScheduled(EngineState state, RequestState request, LoadJobScheduled e) {
        EngineConfig config = state.config();
        int gpuHitTokens = request.computed();
        PrefixMatch match = request.pendingMatch();
        int externalTokens;
        if (match != null && match.hitChunks().equals(e.chunkIndices())) {
            externalTokens = match.externalTokens();
        } else {
            List<Integer> chunks = e.chunkIndices().group(0);
            int end = chunks.isEmpty() ? 0 : chunks.get(chunks.size() - 1) + 1;
            externalTokens = end * config.chunkTokens(0) - gpuHitTokens;
        }
        long hitEnd = (long) gpuHitTokens + externalTokens;
        List<Integer> cursorsBefore = request.tableCount() > 1 ? new ArrayList<>(request.tableCount() - 1) : null;
        RequestState next = request;
        for (int g = 0; g < request.tableCount(); g++) {
            if (g > 0) {
                cursorsBefore.add(request.cursor(g));
            }
            int c = config.chunkTokens(g);
            int end = (int) Math.max(0, (hitEnd + c - 1) / c);
            next = next.withCursor(g, Math.max(request.cursor(g), end));
        }
        Job job = Job.groupedLoad(e.jobId(), e.requestId(), e.chunkIndices().flat(), e.keys().flat(), e.blockIds().flat(),
                gpuHitTokens, externalTokens, request.cursor(), cursorsBefore);
        next = next.withStatus(RequestStatus.LOADING).withPendingMatch(null).withJobIds(request.jobIds().add(e.jobId()));
        return state.withRequest(next)
                .withTier(state.tier().pin(e.keys().flat()))
                .withJobs(state.jobs().put(e.jobId(), job), Math.max(state.nextJobId(), e.jobId() + 1));
    }

    /** A failed load puts back the cursors of groups 1 .. G-1 too. */
    static RequestState restoreCursors(RequestState request, Job job) {
        RequestState next = request;
        List<Integer> before = job.groupCursorsBefore();
        for (int g = 1; g <= before.size() && g < request.tableCount(); g++) {
            next = next.withCursor(g, before.get(g - 1));
        }
        return next;
    }

    /** ResetCache: every cursor returns to 0; the tables keep their null entries. */
    static RequestState resetCursors(RequestState request) {
        RequestState next = request;
        for (int g = 1; g < request.tableCount(); g++) {
            next = next.withCursor(g, 0);
        }
        return next;
    }

    /** A touch of several groups goes group by group in index order, so a later group's chunks end more recent. */
    static CpuTier touch(CpuTier tier, PerGroup<String> keys) {
        CpuTier touched = tier;
        for (List<String> group : keys.lists()) {
            touched = touched.touch(group);
        }
        return touched;
    }

    /** Every cursor to {@code max(s_g, S_g)}: an offer taken (a store, or a tier that holds it whole). */
    static RequestState advance(RequestState request, int[] ends) {
        RequestState next = request;
        for (int g = 0; g < request.tableCount(); g++) {
            if (ends[g] > request.cursor(g)) {
                next = next.withCursor(g, ends[g]);
            }
        }
        return next;
    }

    private static StateHashMap<Integer, Integer> hold(StateHashMap<Integer, Integer> holds, List<Integer> blocks,
                                                          int delta) {
        if (holds == null) {
            return null;
        }
        StateHashMap<Integer, Integer> next = holds;
        for (Integer block : blocks) {
            if (block == null) {
                continue;
            }
            int count = next.getOrElse(block, 0) + delta;
            next = count <= 0 ? next.remove(block) : next.put(block, count);
        }
        return next;
    }
}
