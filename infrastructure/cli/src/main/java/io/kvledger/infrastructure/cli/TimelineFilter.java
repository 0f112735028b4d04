package io.kvledger.infrastructure.cli;

import io.kvledger.application.replay.FoldStep;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.state.RequestState;
import io.kvledger.infrastructure.log.LogEntry;
import io.kvledger.infrastructure.view.TimelineRow.Snapshot;
import java.util.Objects;

/**
 * Which events belong on a request's timeline: those that name it (known types or not), those that
 * changed it without naming it (a reset), and flushes of its jobs.
 */
final class TimelineFilter {

    private TimelineFilter() {
    }

    /**
     * Whether the event is on the timeline; {@code pending} is its step as prepared, {@link FoldStep#before()}
     * read only to know whether it is the log's first. {@code flushesItsJobs} and {@code before} are read from the state
     * before the event, before it is folded; {@code after} from the state it folded to. Whether the event
     * changed the request is a comparison of what the timeline shows of it, never of state objects, so
     * nothing is read of a state the fold has moved on from.
     */
    static boolean concerns(LogEntry entry, FoldStep pending, String requestId, boolean flushesItsJobs, Snapshot before,
                            Snapshot after) {
        if (requestId.equals(entry.raw().path("requestId").asText(null))) {
            return true;
        }
        if (pending.event() == null || pending.before() == null) {
            return false;
        }
        return flushesItsJobs || !Objects.equals(before, after);
    }

    /** Whether the prepared event is a flush of one of the request's jobs in flight (read before the fold). */
    static boolean flushesItsJobs(FoldStep pending, String requestId) {
        if (!(pending.event() instanceof FlushRequired flush) || pending.before() == null) {
            return false;
        }
        RequestState request = pending.before().heldRequest(requestId);
        return request != null && flush.jobIds().stream().anyMatch(request.jobIds()::contains);
    }
}
