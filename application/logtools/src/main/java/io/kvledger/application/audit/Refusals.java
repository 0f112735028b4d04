package io.kvledger.application.audit;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FreeWindowBlocks;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.PrefixMatch;
import io.kvledger.domain.state.RequestState;

/** A command the log shows as accepted that the rules refuse: which rule the log breaks. */
final class Refusals {

    private Refusals() {
    }

    static Differences.Found classify(EngineState before, EngineCommand command, Decision.Rejected rejected,
                                      EngineEvent shown) {
        String reason = "the rules refuse " + command.name() + " here with " + rejected.code() + " (" + rejected.message()
                + "), but the log shows " + EventText.of(shown);
        AuditCode code = switch (rejected.code()) {
            case UNKNOWN_REQUEST -> AuditCode.UNKNOWN_REQUEST;
            case DUPLICATE_REQUEST -> AuditCode.DUPLICATE_REQUEST;
            case UNKNOWN_JOB -> AuditCode.UNKNOWN_JOB;
            case STALE_JOB -> AuditCode.STALE_JOB_COMPLETED;
            case JOB_ALREADY_COMPLETE -> AuditCode.JOB_COMPLETED_TWICE;
            default -> byCommand(before, command);
        };
        return new Differences.Found(0, code, reason, false);
    }

    private static AuditCode byCommand(EngineState before, EngineCommand command) {
        if (command instanceof MatchPrefix) {
            return AuditCode.MATCH_MISMATCH;
        }
        if (before.config().isGrouped()) {
            // The codes of 7.8 for the table rules of 7.3 and FreeWindowBlocks; a log without them judges by
            // sections 1-6 as written (contract 7.0), where the domain applies none of those rules.
            if (command instanceof FreeWindowBlocks) {
                return AuditCode.WINDOW_FREE_MISMATCH;
            }
            if (command instanceof AllocateBlocks allocate) {
                AuditCode table = GroupedAllocationRules.broken(before, allocate);
                if (table != null) {
                    return table;
                }
            }
        }
        if (command instanceof FreeWindowBlocks) {
            return AuditCode.STATE_MISMATCH;
        }
        if (command instanceof AllocateBlocks allocate && allocate.externalTokens() > 0) {
            RequestState request = before.liveRequest(allocate.requestId());
            PrefixMatch match = request == null ? null : request.pendingMatch();
            if (match != null && match.externalTokens() == allocate.externalTokens()) {
                for (String key : request.keys(match.hitChunks().flat(), before.config().blocksPerChunk())) {
                    if (!before.tier().isReady(key)) {
                        return AuditCode.LOAD_NOT_READY;
                    }
                }
            }
            return AuditCode.LOAD_MISMATCH;
        }
        return AuditCode.STATE_MISMATCH;
    }
}
