package io.kvledger.domain;

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
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.VersionedHashMap;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import io.kvledger.domain.state.CpuTier;
import io.vavr.collection.TreeSet;
import java.util.ArrayList;
import java.util.List;

/**
 * The fold of an engine with KV cache groups (contract section 7): one table and cursor per group, null
 * entries, the blocks sliding-window tables hold and the fences of freed window blocks. An engine without
 * groups never comes here.
 */
final class GroupedFold {

    private GroupedFold() {
    }

    static EngineState allocated(EngineState state, RequestState request, BlocksAllocated e) {
        EngineConfig config = state.config();
        RequestState next = request;
        VersionedHashMap<Integer, Integer> holds = state.windowHolds();
        for (int g = 0; g < Math.min(config.groupCount(), e.blockIds().groupCount()); g++) {
            List<Integer> added = e.blockIds().group(g);
            next = next.withTable(g, next.table(g).appendAll(added));
            if (config.group(g).isSliding()) {
                holds = hold(holds, added, 1);
            }
        }
        RequestStatus status = request.isTerminal() ? request.status() : RequestStatus.RUNNING;
        // A load's LoadJobScheduled follows at once and reads the match it uses (its hit end need not be a chunk end).
        next = next.withStatus(status).withPendingMatch(e.externalTokens() > 0 ? request.pendingMatch() : null);
        return state.withRequest(next).withWindowHolds(holds);
    }

    /** Freed entries become null; a store still reading a freed block fences it, under either policy. */
    static EngineState freed(EngineState state, RequestState request, WindowBlocksFreed e) {
        RequestState next = request;
        VersionedHashMap<Integer, Integer> holds = state.windowHolds();
        VersionedHashMap<Integer, TreeSet<Long>> fences = state.fences();
        for (int g = 0; g < Math.min(request.tableCount(), e.blockIds().groupCount()); g++) {
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
                        fences = fences.put(block, fences.getOrElse(block, TreeSet.empty()).add(jobId));
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
        VersionedHashMap<Integer, Integer> holds = state.windowHolds();
        for (int g = 0; g < Math.min(request.tableCount(), e.blockIds().groupCount()); g++) {
            List<Integer> gone = e.blockIds().group(g);
            BlockTable table = BlockCounts.remove(next.table(g), gone);
            next = next.withTable(g, table.hasBlock() ? table : BlockTable.EMPTY);
            if (config.group(g).isSliding()) {
                holds = hold(holds, gone, -1);
            }
        }
        return RequestFold.settle(state.withRequest(next).withWindowHolds(holds), e.requestId());
    }

    /** Preemption empties every table (the release names their blocks) and keeps every cursor. */
    static RequestState preempted(RequestState request) {
        RequestState next = request;
        for (int g = 0; g < request.tableCount(); g++) {
            next = next.withTable(g, BlockTable.EMPTY);
        }
        return next;
    }

    /**
     * After ComputeTokens, AbortRequest, FinishRequest: an empty offer moves every cursor to {@code max(s_g,
     * S_g)}; an offer the tier holds whole does too and touches it; otherwise the decision's event does.
     */
    static EngineState afterOfferTrigger(EngineState state, RequestState request) {
        GroupedOffer offer = GroupedOffer.of(state.config(), state.tier(), request);
        if (offer.isEmpty()) {
            return state.withRequest(advance(request, offer));
        }
        if (!offer.isHeldWhole()) {
            return state.withRequest(request);
        }
        return state.withRequest(advance(request, offer)).withTier(touch(state.tier(), offer.keys()));
    }

    static EngineState storeScheduled(EngineState state, RequestState request, StoreJobScheduled e, Job job) {
        GroupedOffer offer = GroupedOffer.of(state.config(), state.tier(), request);
        RequestState next = request;
        for (int g = 0; g < request.tableCount(); g++) {
            int end = offer == GroupedOffer.NOTHING ? request.cursor(g) : Math.max(request.cursor(g), offer.ends().get(g));
            if (g < e.chunkIndices().groupCount() && !e.chunkIndices().group(g).isEmpty()) {
                List<Integer> stored = e.chunkIndices().group(g);
                end = Math.max(end, stored.get(stored.size() - 1) + 1);
            }
            next = next.withCursor(g, end);
        }
        next = next.withJobIds(request.jobIds().add(e.jobId()));
        CpuTier tier = touch(state.tier().writing(e.keys().flat()), offer.keys());
        EngineState after = state.withRequest(next).withTier(tier)
                .withJobs(state.jobs().put(e.jobId(), job), Math.max(state.nextJobId(), e.jobId() + 1));
        return request.isTerminal() ? JobFold.fenceStores(after, after.heldRequest(e.requestId())) : after;
    }

    /** A load makes every {@code s_g = max(s_g, e_g)}, {@code e_g = ceil(N/C_g)} for the hit end {@code N}. */
    static EngineState loadScheduled(EngineState state, RequestState request, LoadJobScheduled e) {
        EngineConfig config = state.config();
        int gpuHitTokens = request.computed();
        int externalTokens;
        if (request.pendingMatch() != null) {
            externalTokens = request.pendingMatch().externalTokens();
        } else {
            List<Integer> chunks = e.chunkIndices().group(0);
            int end = chunks.isEmpty() ? 0 : chunks.get(chunks.size() - 1) + 1;
            externalTokens = Math.max(0, end * config.chunkTokens(0) - gpuHitTokens);
        }
        long hitEnd = (long) gpuHitTokens + externalTokens;
        List<Integer> cursorsBefore = new ArrayList<>();
        RequestState next = request;
        for (int g = 0; g < request.tableCount(); g++) {
            if (g > 0) {
                cursorsBefore.add(request.cursor(g));
            }
            int c = config.chunkTokens(g);
            int end = (int) ((hitEnd + c - 1) / c);
            next = next.withCursor(g, Math.max(request.cursor(g), end));
        }
        Job job = Job.groupedLoad(e.jobId(), e.requestId(), e.chunkIndices().flat(), e.keys().flat(), e.blockIds().flat(),
                gpuHitTokens, externalTokens, request.cursor(), request.tableCount() > 1 ? cursorsBefore : null);
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

    private static RequestState advance(RequestState request, GroupedOffer offer) {
        if (offer == GroupedOffer.NOTHING) {
            return request;
        }
        RequestState next = request;
        for (int g = 0; g < request.tableCount(); g++) {
            next = next.withCursor(g, Math.max(request.cursor(g), offer.ends().get(g)));
        }
        return next;
    }

    private static VersionedHashMap<Integer, Integer> hold(VersionedHashMap<Integer, Integer> holds, List<Integer> blocks,
                                                          int delta) {
        if (holds == null) {
            return null;
        }
        VersionedHashMap<Integer, Integer> next = holds;
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
