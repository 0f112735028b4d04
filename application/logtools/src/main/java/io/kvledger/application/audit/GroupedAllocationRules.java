package io.kvledger.application.audit;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.rules.AllocationTableRules;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which table rule of contract 7.3 a refused allocation of a grouped log breaks: a block named twice, one
 * the request's tables already hold, or one another request's sliding-window table still holds
 * ({@code BLOCK_STILL_HELD}, outside the GPU-hit exemption), or a null entry at or past
 * {@code first_g(c + externalTokens)} ({@code NULL_ENTRY_MISMATCH}).
 */
final class GroupedAllocationRules {

    private GroupedAllocationRules() {
    }

    /** The code of the first table rule the allocation breaks, in the domain's order; {@code null} when none. */
    static AuditCode broken(EngineState before, AllocateBlocks command) {
        RequestState request = before.liveRequest(command.requestId());
        EngineConfig config = before.config();
        if (request == null || command.blockIds().groupCount() != config.groupCount()) {
            return null;
        }
        Set<Integer> named = new HashSet<>();
        for (List<Integer> ids : command.blockIds().lists()) {
            for (Integer block : ids) {
                if (block != null && !named.add(block)) {
                    return AuditCode.BLOCK_STILL_HELD;
                }
            }
        }
        if (request.status() == RequestStatus.LOADING) {
            return null;
        }
        AllocationTableRules.Broken broken = AllocationTableRules.firstBroken(before, request, command);
        if (broken == null) {
            return null;
        }
        return broken.rule() == AllocationTableRules.Rule.NULL_INSIDE_WINDOW ? AuditCode.NULL_ENTRY_MISMATCH : AuditCode.BLOCK_STILL_HELD;
    }
}
