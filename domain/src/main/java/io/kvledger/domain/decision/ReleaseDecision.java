package io.kvledger.domain.decision;

import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.group.PerGroup;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** When blocks go back to the host (contract section 4, Preemption and Release). Never an empty release. */
final class ReleaseDecision {

    private ReleaseDecision() {
    }

    /** Each group's non-null entries not in {@code except}, in table order (contract section 7.7). */
    static PerGroup<Integer> heldBlocks(RequestState request, Set<Integer> except) {
        if (request.tableCount() == 1 && except.isEmpty()) {
            List<Integer> whole = request.blockTable().immutableBlocks();   // null when an entry is null
            if (whole != null) {
                return PerGroup.single(whole);
            }
        }
        List<List<Integer>> lists = new ArrayList<>(request.tableCount());
        for (int g = 0; g < request.tableCount(); g++) {
            List<Integer> held = new ArrayList<>();
            for (Integer block : request.table(g)) {
                if (block != null && !except.contains(block)) {
                    held.add(block);
                }
            }
            lists.add(held);
        }
        return PerGroup.of(lists);
    }

    /**
     * A terminated request's blocks (contract section 4, Release; 7.7 per group): under FENCE at once, but for
     * those its load is writing into; under DELAY_FREE once none of its stores and loads is in flight. Called
     * after its terminal command and after each of its jobs ends, with the request as the command's events
     * before the release leave it ({@code null} when it is not held). Never an empty release.
     *
     * @param storeScheduled whether the command scheduled a store of it (in flight, not in {@code request}'s jobs)
     */
    static void releaseTerminated(Emitter emitter, RequestState request, boolean storeScheduled) {
        if (request == null || !request.isTerminal() || !request.holdsBlocks()) {
            return;
        }
        String requestId = request.requestId();
        EngineState state = emitter.state();
        Set<Integer> beingLoaded = Set.of();
        if (state.config().releasePolicy() == ReleasePolicy.DELAY_FREE) {
            if (request.hasJobsInFlight() || storeScheduled) {
                return;
            }
        } else {
            // The rule speaks of blocks, not table positions: an id the load writes into is held at every
            // position the table holds it, so the host never frees a block a transfer still fills.
            for (long jobId : request.jobIds()) {
                Job job = state.job(jobId);
                if (job != null && job.isLoad()) {
                    if (beingLoaded.isEmpty()) {
                        beingLoaded = new HashSet<>();
                    }
                    beingLoaded.addAll(job.blockIds());
                }
            }
        }
        PerGroup<Integer> released = heldBlocks(request, beingLoaded);
        if (!released.isEmpty()) {
            emitter.emit(new BlocksReleased(requestId, released));
        }
    }
}
