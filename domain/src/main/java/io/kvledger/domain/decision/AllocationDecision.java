package io.kvledger.domain.decision;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.state.PrefixMatch;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import java.util.List;

/** Block allocation, the loads it starts, and the flushes a fenced block needs (contract section 4, Loads). */
final class AllocationDecision {

    private AllocationDecision() {
    }

    static void allocate(Emitter emitter, RequestState request, AllocateBlocks command) {
        if (emitter.state().config().isGrouped()) {
            GroupedAllocation.allocate(emitter, request, command);
            return;
        }
        GroupShapes.requireGroupCount("blockIds", command.blockIds(), emitter.state().config());
        Arguments.requireNonNegative("blockIds", command.blockIds().flat());
        if (command.externalTokens() < 0) {
            throw Rejection.invalidArgument("externalTokens must be >= 0, was " + command.externalTokens());
        }
        if (request.status() == RequestStatus.LOADING) {
            throw Rejection.invalidState("AllocateBlocks is refused while request " + request.requestId() + " is LOADING");
        }
        EngineConfig config = emitter.state().config();
        PrefixMatch load = command.externalTokens() > 0 ? requireLoadable(emitter, request, command, config) : null;

        FlushRequired flush = Flushes.ofFencedBlocks(emitter.state(), command.blockIds().flat());
        if (flush != null) {
            emitter.emit(flush);
        }
        emitter.emit(new BlocksAllocated(request.requestId(), command.blockIds(), command.externalTokens()));
        if (load != null) {
            var table = emitter.request(request.requestId()).blockTable();
            int firstDestination = load.gpuHitTokens() / config.gpuBlockSize();
            List<Integer> destination = table.subSequence(firstDestination, load.endChunk() * config.blocksPerChunk()).asJava();
            emitter.emit(new LoadJobScheduled(emitter.state().nextJobId(), request.requestId(), load.hitChunks().flat(),
                    request.keys(load.hitChunks().flat(), config.blocksPerChunk()), destination));
        }
    }

    /** A load is made by a WAITING or PREEMPTED request with the value of its unused match (one group or several). */
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

    /** A load needs the value of an unused match whose chunks are still ready, then a table long enough. */
    private static PrefixMatch requireLoadable(Emitter emitter, RequestState request, AllocateBlocks command,
                                               EngineConfig config) {
        String id = request.requestId();
        PrefixMatch match = requireUnusedMatch(request, command);
        for (String key : request.keys(match.hitChunks().flat(), config.blocksPerChunk())) {
            if (!emitter.state().tier().isReady(key)) {
                throw Rejection.invalidState("hit chunk " + key + " of request " + id + " is no longer ready in the CPU tier");
            }
        }
        long needed = (long) match.endChunk() * config.blocksPerChunk();
        long after = (long) request.blockTable().size() + command.blockIds().flat().size();
        if (after < needed) {
            throw Rejection.invalidArgument("the table would hold " + after + " blocks; loading chunks up to "
                    + match.endChunk() + " needs " + needed);
        }
        return match;
    }
}
