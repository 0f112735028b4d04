package io.kvledger.simulation.audit;

import io.kvledger.application.replay.CommandWindow;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TransferAcknowledged;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.BiPredicate;

/**
 * What {@link PlantedFault}'s faults share and that depends on no fault: finding a place in a clean log
 * (an event that fits, a command's first event, what came before an event) and copying the log or an
 * event with one change. Apart from the faults so that the list of faults reads as a list.
 */
final class CleanLogEdits {

    private CleanLogEdits() {
    }

    static boolean opensAt(List<EngineEvent> log, int i) {
        EngineEvent e = log.get(i);
        return CommandWindow.opensCommand(e) || (e instanceof FlushRequired && i + 1 < log.size() && log.get(i + 1) instanceof BlocksAllocated);
    }

    /** A command's first event, not the first command's and not an allocation right after its flush. */
    static int pickOpener(List<EngineEvent> log, Random random) {
        return pick(log, random, (e, k) -> k > 1 && CommandWindow.opensCommand(e) && !(log.get(k - 1) instanceof FlushRequired));
    }

    /** A random index whose event fits (the first one when {@code random} is null), or -1. */
    static int pick(List<EngineEvent> log, Random random, BiPredicate<EngineEvent, Integer> fits) {
        List<Integer> candidates = new ArrayList<>();
        for (int k = 1; k < log.size(); k++) {
            if (fits.test(log.get(k), k)) {
                if (random == null) {
                    return k;
                }
                candidates.add(k);
            }
        }
        return candidates.isEmpty() ? -1 : candidates.get(random.nextInt(candidates.size()));
    }

    static List<EngineEvent> replace(List<EngineEvent> log, int i, EngineEvent event) {
        List<EngineEvent> planted = new ArrayList<>(log);
        planted.set(i, event);
        return planted;
    }

    static <T> List<T> reversed(List<T> list) {
        List<T> copy = new ArrayList<>(list);
        java.util.Collections.reverse(copy);
        return copy;
    }

    static StoreJobScheduled firstPart(StoreJobScheduled s, long jobId) {
        int n = s.chunkIndices().flat().size();
        int f = s.blockIds().flat().size() / n;
        return new StoreJobScheduled(jobId, s.requestId(), s.chunkIndices().flat().subList(0, n - 1), s.keys().flat().subList(0, n - 1),
                s.blockIds().flat().subList(0, (n - 1) * f));
    }

    /** Whether {@code r} frees a block that one of its own request's jobs named by {@code flush} reads or writes. */
    static boolean releasesOwnJobsBlock(List<EngineEvent> log, int flushAt, FlushRequired flush, BlocksReleased r) {
        for (int k = flushAt - 1; k > 0; k--) {
            List<Integer> used = log.get(k) instanceof StoreJobScheduled s && flush.jobIds().contains(s.jobId())
                    && s.requestId().equals(r.requestId()) ? s.blockIds().flat()
                    : log.get(k) instanceof LoadJobScheduled l && flush.jobIds().contains(l.jobId())
                    && l.requestId().equals(r.requestId()) ? l.blockIds().flat() : List.of();
            if (used.stream().anyMatch(r.blockIds().flat()::contains)) {
                return true;
            }
        }
        return false;
    }

    static boolean failedBefore(List<EngineEvent> log, long jobId, int before) {
        for (int k = before - 1; k > 0; k--) {
            if (log.get(k) instanceof TransferAcknowledged a && a.jobId() == jobId && !a.success()) {
                return true;
            }
        }
        return false;
    }

    static boolean isStore(List<EngineEvent> log, long jobId, int before) {
        for (int k = before - 1; k > 0; k--) {
            if (log.get(k) instanceof StoreJobScheduled s && s.jobId() == jobId) {
                return true;
            }
            if (log.get(k) instanceof LoadJobScheduled l && l.jobId() == jobId) {
                return false;
            }
        }
        return false;
    }
}
