package io.kvledger.infrastructure.cli;

import io.kvledger.application.replay.FoldStep;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.infrastructure.log.LogEntry;

/**
 * Which events belong on a request's timeline: those that name it (known types or not), those that
 * changed it without naming it (a reset), and flushes of its jobs.
 */
final class TimelineFilter {

    private TimelineFilter() {
    }

    static boolean concerns(LogEntry entry, FoldStep step, String requestId) {
        if (requestId.equals(entry.raw().path("requestId").asText(null))) {
            return true;
        }
        if (step.event() == null || step.before() == null) {
            return false;
        }
        RequestState before = step.before().heldRequest(requestId);
        if (step.event() instanceof FlushRequired flush && before != null
                && flush.jobIds().stream().anyMatch(before.jobIds()::contains)) {
            return true;
        }
        return before != step.after().heldRequest(requestId) || retired(step.before(), requestId) != retired(step.after(), requestId);
    }

    private static boolean retired(EngineState state, String requestId) {
        return state.retired().containsKey(requestId);
    }
}
