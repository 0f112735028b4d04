package io.kvledger.domain.decision;

import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import java.util.Comparator;
import java.util.List;

/** ResetCache (contract section 4). */
final class ResetDecision {

    private ResetDecision() {
    }

    static void reset(Emitter emitter) {
        EngineState before = emitter.state();
        FlushRequired flush = Flushes.ofJobs(before, before.jobs().keySet());
        emitter.emit(new CacheReset(before.nextJobId()));
        if (flush != null) {
            emitter.emit(flush);
        }
        // The reset changes no status and no table: the requests it leaves holding blocks are those holding them now.
        List<RequestState> holding = before.requests().values().stream()
                .filter(request -> request.isTerminal() && request.holdsBlocks())
                .sorted(Comparator.comparingLong(RequestState::ordinal))
                .toList();
        for (RequestState request : holding) {
            emitter.emit(new BlocksReleased(request.requestId(), ReleaseDecision.heldBlocks(request, java.util.Set.of())));
        }
    }
}
