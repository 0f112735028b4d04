package io.kvledger.domain.decision;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.domain.rules.AllocationTableRules;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.PrefixMatch;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import io.kvledger.domain.state.BlockTable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code AllocateBlocks} with groups (contract sections 7.3, 7.6). Guards in the order of section 4's
 * precedence: the command's own fields (G lists, ids, nulls only in sliding lists, no id twice), the
 * request's state and the load's match, the table rules (null positions, ids the request already holds,
 * blocks a sliding table of another request still holds), and last a load's table length.
 */
final class GroupedAllocation {

    private GroupedAllocation() {
    }

    static void allocate(Emitter emitter, RequestState request, AllocateBlocks command) {
        EngineState state = emitter.state();
        EngineConfig config = state.config();
        PerGroup<Integer> blockIds = command.blockIds();
        GroupShapes.requireGroupCount("blockIds", blockIds, config);
        Set<Integer> named = new HashSet<>();
        for (int g = 0; g < config.groupCount(); g++) {
            List<Integer> ids = blockIds.group(g);
            for (int i = 0; i < ids.size(); i++) {
                Integer block = ids.get(i);
                if (block == null) {
                    if (!config.group(g).isSliding()) {
                        throw Rejection.invalidArgument("blockIds[" + g + "][" + i + "] is null; a null block is allowed "
                                + "only in a SLIDING_WINDOW group");
                    }
                } else if (block < 0) {
                    throw Rejection.invalidArgument("blockIds[" + g + "][" + i + "] must be a non-negative integer, was " + block);
                } else if (!named.add(block)) {
                    throw Rejection.invalidArgument("blockIds names block " + block + " twice");
                }
            }
        }
        if (command.externalTokens() < 0) {
            throw Rejection.invalidArgument("externalTokens must be >= 0, was " + command.externalTokens());
        }
        if (request.status() == RequestStatus.LOADING) {
            throw Rejection.invalidState("AllocateBlocks is refused while request " + request.requestId() + " is LOADING");
        }
        PrefixMatch load = command.externalTokens() > 0 ? requireLoadable(emitter, request, command) : null;
        requireTableRules(state, request, command);
        if (load != null) {
            requireLongEnough(config, request, command, load);
        }

        List<Integer> handedOut = new ArrayList<>(named.size());
        for (List<Integer> ids : blockIds.lists()) {
            for (Integer block : ids) {
                if (block != null) {
                    handedOut.add(block);
                }
            }
        }
        FlushRequired flush = Flushes.ofFencedBlocks(state, handedOut);
        if (flush != null) {
            emitter.emit(flush);
        }
        emitter.emit(new BlocksAllocated(request.requestId(), blockIds, command.externalTokens()));
        if (load != null) {
            emitter.emit(loadJob(emitter, config, load, request.requestId()));
        }
    }

    /** A null entry only below {@code first_g(c + externalTokens)}; no block twice in the request; none still held. */
    private static void requireTableRules(EngineState state, RequestState request, AllocateBlocks command) {
        AllocationTableRules.Broken broken = AllocationTableRules.firstBroken(state, request, command);
        if (broken != null) {
            throw Rejection.invalidArgument(broken.reason());
        }
    }

    /** As for one group: a WAITING or PREEMPTED request, the value of an unused match, its hit chunks ready. */
    private static PrefixMatch requireLoadable(Emitter emitter, RequestState request, AllocateBlocks command) {
        EngineConfig config = emitter.state().config();
        String id = request.requestId();
        PrefixMatch match = AllocationDecision.requireUnusedMatch(request, command);
        for (int g = 0; g < match.hitChunks().groupCount(); g++) {
            for (int chunk : match.hitChunks().group(g)) {
                String key = request.key(config, g, chunk);
                if (!emitter.state().tier().isReady(key)) {
                    throw Rejection.invalidState("hit chunk " + chunk + " of group " + g + " of request " + id
                            + " is no longer ready in the CPU tier");
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
                throw Rejection.invalidArgument("group " + g + "'s table would hold " + after + " entries; loading up to token "
                        + end + " needs " + needed);
            }
        }
    }

    /** Each group's hit chunks into {@code T_g[p_g .. e_g*F)}, {@code p_g = max(L/B_g, first_g(N))}. */
    private static LoadJobScheduled loadJob(Emitter emitter, EngineConfig config, PrefixMatch load, String requestId) {
        RequestState request = emitter.request(requestId);
        long end = (long) load.gpuHitTokens() + load.externalTokens();
        List<List<String>> keys = new ArrayList<>();
        List<List<Integer>> destinations = new ArrayList<>();
        for (int g = 0; g < config.groupCount(); g++) {
            KvCacheGroup group = config.group(g);
            List<String> groupKeys = new ArrayList<>();
            for (int chunk : load.hitChunks().group(g)) {
                groupKeys.add(request.key(config, g, chunk));
            }
            keys.add(groupKeys);
            int c = config.chunkTokens(g);
            int from = Math.max(load.gpuHitTokens() / group.blockSize(), group.firstInWindow(end));
            int to = (int) ((end + c - 1) / c) * config.blocksPerChunk();
            BlockTable table = request.table(g);
            destinations.add(from >= to ? List.of() : new ArrayList<>(table.subSequence(from, to).asJava()));
        }
        return new LoadJobScheduled(emitter.state().nextJobId(), request.requestId(), load.hitChunks(), PerGroup.of(keys),
                PerGroup.of(destinations));
    }
}
