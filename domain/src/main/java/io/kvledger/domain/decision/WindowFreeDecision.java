package io.kvledger.domain.decision;

import io.kvledger.domain.command.FreeWindowBlocks;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import io.kvledger.domain.state.BlockTable;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code FreeWindowBlocks} (contract section 7.3): the host freed sliding-window blocks outside the
 * window of a running request. Every check of its ids is a field check, before the request's state.
 */
final class WindowFreeDecision {

    private WindowFreeDecision() {
    }

    static void free(Emitter emitter, RequestState request, FreeWindowBlocks command) {
        EngineConfig config = emitter.state().config();
        if (!config.isGrouped()) {
            // 7.0: one FULL group without eagle is today's engine; the command is known and always refused.
            throw Rejection.invalidArgument("FreeWindowBlocks needs a SLIDING_WINDOW group; the config has none");
        }
        GroupShapes.requireGroupCount("blockIds", command.blockIds(), config);
        if (command.blockIds().isEmpty()) {
            throw Rejection.invalidArgument("FreeWindowBlocks must name at least one block");
        }
        Set<Integer> named = new HashSet<>();
        for (int g = 0; g < config.groupCount(); g++) {
            List<Integer> ids = command.blockIds().group(g);
            KvCacheGroup group = config.group(g);
            if (!ids.isEmpty() && !group.isSliding()) {
                throw Rejection.invalidArgument("blockIds[" + g + "] names blocks of a FULL group; only a SLIDING_WINDOW "
                        + "group's blocks are freed");
            }
            BlockTable table = request.table(g);
            int first = group.firstInWindow(request.computed());
            for (int i = 0; i < ids.size(); i++) {
                Integer block = ids.get(i);
                if (block == null || block < 0) {
                    throw Rejection.invalidArgument("blockIds[" + g + "][" + i + "] must be a non-negative integer, was " + block);
                }
                if (!named.add(block)) {
                    throw Rejection.invalidArgument("blockIds names block " + block + " twice");
                }
                int position = table.indexOf(block);
                if (position < 0) {
                    throw Rejection.invalidArgument("block " + block + " is not an entry of group " + g + "'s table of request "
                            + request.requestId());
                }
                if (position >= first) {
                    throw Rejection.invalidArgument("block " + block + " at position " + position + " of group " + g
                            + " is inside the window (first_g(" + request.computed() + ") = " + first + ")");
                }
            }
        }
        if (request.status() != RequestStatus.RUNNING) {
            throw Rejection.invalidState("FreeWindowBlocks needs a RUNNING request; " + request.requestId() + " is "
                    + request.status());
        }
        emitter.emit(new WindowBlocksFreed(request.requestId(), command.blockIds()));
    }
}
