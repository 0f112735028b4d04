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
        StateHashMap<Integer, Integer> holds = state.windowHolds();
        for (int g = 0; g < Math.min(config.groupCount(), e.blockIds().groupCount()); g++) {
            List<Integer> added = e.blockIds().group(g);
            request.setTable(g, request.table(g).appendAll(added));
            if (config.isSliding(g)) {
                hold(holds, added, 1);
            }
        }
        if (!request.isTerminal()) {
            request.setStatus(RequestStatus.RUNNING);
        }
        // A load's LoadJobScheduled follows at once and reads the match it uses (its hit end need not be a chunk end).
        if (e.externalTokens() <= 0) {
            request.setPendingMatch(null);
        }
        return state;
    }

    /**
     * Freed entries of a sliding-window table become null; a store still reading a freed block fences it, under
     * either policy.
     */
    static EngineState freed(EngineState state, RequestState request, WindowBlocksFreed e) {
        StateHashMap<Integer, Integer> holds = state.windowHolds();
        StateHashMap<Integer, JobIds> fences = state.fences();
        for (int g = 0; g < Math.min(request.tableCount(), e.blockIds().groupCount()); g++) {
            if (!state.config().isSliding(g)) {
                continue; // only a sliding window frees; without one the event is ignored (contract 7.8)
            }
            BlockTable table = request.table(g);
            for (Integer block : e.blockIds().group(g)) {
                int position = table.indexOf(block);
                if (position < 0) {
                    continue;
                }
                table = table.update(position, (Integer) null);
                hold(holds, List.of(block), -1);
                for (long jobId : request.jobIds()) {
                    Job job = state.job(jobId);
                    if (job != null && job.isStore() && job.blockIds().contains(block)) {
                        fences.put(block, fences.getOrElse(block, JobIds.EMPTY).add(jobId));
                    }
                }
            }
            request.setTable(g, table);
        }
        return state;
    }

    /** Released blocks leave their group's table; a table left with null entries only is emptied. */
    static EngineState released(EngineState state, RequestState request, BlocksReleased e) {
        EngineConfig config = state.config();
        StateHashMap<Integer, Integer> holds = state.windowHolds();
        for (int g = 0; g < Math.min(request.tableCount(), e.blockIds().groupCount()); g++) {
            List<Integer> gone = e.blockIds().group(g);
            BlockTable table = BlockCounts.remove(request.table(g), gone);
            request.setTable(g, table.hasBlock() ? table : BlockTable.EMPTY);
            if (config.isSliding(g)) {
                hold(holds, gone, -1);
            }
        }
        return RequestFold.settle(state, e.requestId());
    }

    /**
     * Preemption keeps every cursor. A grouped table is emptied here (contract 7.7: the preemption releases and
     * empties every table); a table of one group without the grouped rules (contract 7.0) keeps its blocks until
     * the {@code BlocksReleased} that follows takes them out, so a log that releases it only in part keeps the
     * rest, as revision 4's fold did (the audits of foreign logs keep their findings).
     */
    static void preempted(EngineConfig config, RequestState request) {
        if (!config.isGrouped()) {
            return;
        }
        for (int g = 0; g < request.tableCount(); g++) {
            request.setTable(g, BlockTable.EMPTY);
        }
    }

    /**
     * A store moves each cursor to {@code max(s_g, S_g, its last chunk + 1)} and touches the offer, group by group,
     * after its chunks are written.
     */
    static EngineState storeScheduled(EngineState state, RequestState request, StoreJobScheduled e, Job job) {
        EngineConfig config = state.config();
        // The offer's ends and keys; which chunks the tier lacks is the job's own (its keys), so no tier is read.
        int[] ends = GroupedOffer.ends(config, request);
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
            // The offer is read from the cursor before the store moves it.
            List<String> touched = ends == null ? List.of() : GroupedOffer.offeredKeys(config, request, g, ends[g]);
            if (end > offerEnd && touchesPastTheOffer) {
                touched = new ArrayList<>(touched);
                for (int chunk = offerEnd; chunk < Math.min(end, request.keyCount(config, g)); chunk++) {
                    touched.add(request.key(config, g, chunk));
                }
            }
            request.setCursor(g, end);
            tier = g == 0 ? tier.writingThenTouching(job.keys(), touched) : tier.touch(touched); // the job's: e's keys, flat
        }
        request.setJobIds(request.jobIds().add(e.jobId()));
        EngineState after = state.withTier(tier)
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
        int cursorBefore = request.cursor();
        for (int g = 0; g < request.tableCount(); g++) {
            if (g > 0) {
                cursorsBefore.add(request.cursor(g));
            }
            int c = config.chunkTokens(g);
            int end = (int) Math.max(0, (hitEnd + c - 1) / c);
            request.setCursor(g, Math.max(request.cursor(g), end));
        }
        Job job = Job.groupedLoad(e.jobId(), e.requestId(), e.chunkIndices().flat(), e.keys().flat(), e.blockIds().flat(),
                gpuHitTokens, externalTokens, cursorBefore, cursorsBefore);
        request.setStatus(RequestStatus.LOADING);
        request.setPendingMatch(null);
        request.setJobIds(request.jobIds().add(e.jobId()));
        return state
                .withTier(state.tier().pin(job.keys()))
                .withJobs(state.jobs().put(e.jobId(), job), Math.max(state.nextJobId(), e.jobId() + 1));
    }

    /** A failed load puts back the cursors of groups 1 .. G-1 too. */
    static void restoreCursors(RequestState request, Job job) {
        List<Integer> before = job.groupCursorsBefore();
        for (int g = 1; g <= before.size() && g < request.tableCount(); g++) {
            request.setCursor(g, before.get(g - 1));
        }
    }

    /** ResetCache: the cursors of groups 1 .. G-1 return to 0; the tables keep their null entries. */
    static void resetCursors(RequestState request) {
        for (int g = 1; g < request.tableCount(); g++) {
            request.setCursor(g, 0);
        }
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
    static void advance(RequestState request, int[] ends) {
        for (int g = 0; g < request.tableCount(); g++) {
            if (ends[g] > request.cursor(g)) {
                request.setCursor(g, ends[g]);
            }
        }
    }

    /** Counts {@code blocks} held {@code delta} more times, in place; {@code holds} is null without groups. */
    private static void hold(StateHashMap<Integer, Integer> holds, List<Integer> blocks, int delta) {
        if (holds == null) {
            return;
        }
        for (Integer block : blocks) {
            if (block == null) {
                continue;
            }
            int count = holds.getOrElse(block, 0) + delta;
            if (count <= 0) {
                holds.remove(block);
            } else {
                holds.put(block, count);
            }
        }
    }
}
