package io.kvledger.domain.decision;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.rules.AllocationTableRules;
import io.kvledger.domain.state.BlockTable;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.PrefixMatch;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code AllocateBlocks}: block allocation, the loads it starts and the flushes a fenced block needs (contract
 * section 4, Loads; sections 7.3 and 7.6 per group). One path for every config: a config without groups is one
 * {@code FULL} group. Guards in the order of section 4's precedence: the command's own fields, the request's
 * state and the load's match, the table rules of 7.3 (only where the model is grouped, 7.0), and last a load's
 * table length.
 */
final class AllocationDecision {

    private AllocationDecision() {
    }

    static void allocate(Emitter emitter, RequestState request, AllocateBlocks command) {
        EngineState state = emitter.state();
        EngineConfig config = state.config();
        PerGroup<Integer> blockIds = command.blockIds();
        GroupShapes.requireGroupCount("blockIds", blockIds, config);
        // Contract 7.0: no id twice and the table rules of 7.3 are the grouped model's own; so is its wording.
        boolean grouped = config.isGrouped();
        requireIds(config, blockIds, grouped);
        if (command.externalTokens() < 0) {
            throw Rejection.invalidArgument("externalTokens must be >= 0, was " + command.externalTokens());
        }
        if (request.status() == RequestStatus.LOADING) {
            throw Rejection.invalidState("AllocateBlocks is refused while request " + request.requestId() + " is LOADING");
        }
        PrefixMatch load = command.externalTokens() > 0 ? requireLoadable(emitter, request, command) : null;
        if (grouped) {
            AllocationTableRules.Broken broken = AllocationTableRules.firstBroken(state, request, command);
            if (broken != null) {
                throw Rejection.invalidArgument(broken.reason());
            }
        }
        if (load != null) {
            requireLongEnough(config, request, command, load);
        }

        FlushRequired flush = Flushes.ofFencedBlocks(state, handedOut(config, blockIds));
        if (flush != null) {
            emitter.emit(flush);
        }
        emitter.emit(new BlocksAllocated(request.requestId(), blockIds, command.externalTokens()));
        if (load != null) {
            emitter.emit(loadJob(emitter, config, load, request, blockIds));
        }
    }

    /** A load is made by a WAITING or PREEMPTED request with the value of its unused match. */
    static PrefixMatch requireUnusedMatch(RequestState request, AllocateBlocks command) {
        String id = request.requestId();
        if (request.status() == RequestStatus.RUNNING) {
            throw Rejection.invalidState("a load needs a WAITING or PREEMPTED request; " + id + " is RUNNING");
        }
        PrefixMatch match = request.pendingMatch();
        if (match == null || match.externalTokens() != command.externalTokens()) {
            throw Rejection.invalidState("externalTokens " + command.externalTokens() + " is not the value of an unused "
                    + "PrefixMatched of request " + id + (match == null ? " (there is none)" : " (" + match.externalTokens() + ")"));
        }
        return match;
    }

    /** Entries {@code from .. to} of {@code table} followed by {@code added}, without making that table. */
    private static List<Integer> entries(BlockTable table, List<Integer> added, int from, int to) {
        List<Integer> entries = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            entries.add(i < table.size() ? table.get(i) : added.get(i - table.size()));
        }
        return entries;
    }

    /**
     * Ids, one path for one group and many: none negative, a null only in a sliding group's list (section 4, Bad
     * input; 7.2), and, where the model is grouped, none twice (7.3). Without groups section 4's wording, which
     * names a position of the flat list and calls a null not a non-negative integer; {@link #position} is the one
     * place that chooses.
     */
    private static void requireIds(EngineConfig config, PerGroup<Integer> blockIds, boolean grouped) {
        Set<Integer> named = grouped ? new HashSet<>() : null;
        for (int g = 0; g < blockIds.groupCount(); g++) {
            List<Integer> ids = blockIds.group(g);
            for (int i = 0; i < ids.size(); i++) {
                Integer block = ids.get(i);
                if (block == null) {
                    if (!config.isSliding(g)) {
                        throw Rejection.invalidArgument(position(grouped, g, i) + (grouped
                                ? " is null; a null block is allowed only in a SLIDING_WINDOW group"
                                : " must be a non-negative integer, was null"));
                    }
                } else if (block < 0) {
                    throw Rejection.invalidArgument(position(grouped, g, i) + " must be a non-negative integer, was " + block);
                } else if (named != null && !named.add(block)) {
                    throw Rejection.invalidArgument("blockIds names block " + block + " twice");
                }
            }
        }
    }

    /** {@code blockIds[g][i]} where the model is grouped, section 4's {@code blockIds[i]} otherwise (one list). */
    private static String position(boolean grouped, int g, int i) {
        return grouped ? "blockIds[" + g + "][" + i + "]" : "blockIds[" + i + "]";
    }

    /** The blocks the allocation hands out: every non-null id, group by group (one FULL group's list has no null). */
    private static List<Integer> handedOut(EngineConfig config, PerGroup<Integer> blockIds) {
        if (blockIds.groupCount() == 1 && !config.isSliding(0)) {
            return blockIds.group(0);
        }
        List<Integer> handedOut = new ArrayList<>();
        for (List<Integer> ids : blockIds.lists()) {
            for (Integer block : ids) {
                if (block != null) {
                    handedOut.add(block);
                }
            }
        }
        return handedOut;
    }

    /** The value of an unused match whose hit chunks (of every group) are still ready. */
    private static PrefixMatch requireLoadable(Emitter emitter, RequestState request, AllocateBlocks command) {
        EngineConfig config = emitter.state().config();
        String id = request.requestId();
        PrefixMatch match = requireUnusedMatch(request, command);
        for (int g = 0; g < match.hitChunks().groupCount(); g++) {
            int known = request.keyCount(config, g);
            for (int chunk : match.hitChunks().group(g)) {
                if (chunk < 0 || chunk >= known) {
                    continue; // only a foreign match names a chunk without a key
                }
                String key = request.key(config, g, chunk);
                if (!emitter.state().tier().isReady(key)) {
                    throw Rejection.invalidState(config.isGrouped()
                            ? "hit chunk " + chunk + " of group " + g + " of request " + id + " is no longer ready in the CPU tier"
                            : "hit chunk " + key + " of request " + id + " is no longer ready in the CPU tier");
                }
            }
        }
        return match;
    }

    /** After the allocation every {@code T_g} holds at least {@code e_g * F} entries. */
    private static void requireLongEnough(EngineConfig config, RequestState request, AllocateBlocks command, PrefixMatch load) {
        long end = (long) load.gpuHitTokens() + load.externalTokens();
        for (int g = 0; g < config.groupCount(); g++) {
            int c = config.chunkTokens(g);
            long needed = (end + c - 1) / c * config.blocksPerChunk();
            long after = (long) request.table(g).size() + command.blockIds().group(g).size();
            if (after < needed) {
                throw Rejection.invalidArgument(config.isGrouped()
                        ? "group " + g + "'s table would hold " + after + " entries; loading up to token " + end + " needs " + needed
                        : "the table would hold " + after + " blocks; loading chunks up to " + load.endChunk() + " needs " + needed);
            }
        }
    }

    /**
     * Each group's hit chunks into {@code T_g[p_g .. e_g*F)}, {@code p_g = max(L/B_g, first_g(N))}, of the table
     * the allocation of {@code allocated} makes.
     */
    private static LoadJobScheduled loadJob(Emitter emitter, EngineConfig config, PrefixMatch load, RequestState request,
                                            PerGroup<Integer> allocated) {
        long end = (long) load.gpuHitTokens() + load.externalTokens();
        int groups = config.groupCount();
        List<List<String>> keys = new ArrayList<>(groups);
        List<List<Integer>> destinations = new ArrayList<>(groups);
        for (int g = 0; g < groups; g++) {
            KvCacheGroup group = config.group(g);
            int known = request.keyCount(config, g);
            List<Integer> chunks = load.hitChunks().group(g);
            List<String> groupKeys = new ArrayList<>(chunks.size());
            for (int chunk : chunks) {
                if (chunk >= 0 && chunk < known) {
                    groupKeys.add(request.key(config, g, chunk));
                }
            }
            keys.add(groupKeys);
            int c = config.chunkTokens(g);
            int from = Math.max(load.gpuHitTokens() / group.blockSize(), group.firstInWindow(end));
            int to = (int) ((end + c - 1) / c) * config.blocksPerChunk();
            destinations.add(from >= to ? List.of() : entries(request.table(g), allocated.group(g), from, to));
        }
        return new LoadJobScheduled(emitter.state().nextJobId(), request.requestId(), load.hitChunks(), PerGroup.of(keys),
                PerGroup.of(destinations));
    }
}
