package io.kvledger.application.audit;

import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestEvent;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TransferAcknowledged;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The first difference between the events the rules derive for a command and the events the log shows
 * for it, and the code of contract section 5 that names it. Events are compared field by field; a job
 * the command schedules may have any fresh id (another producer numbers jobs its own way; ids are
 * checked by {@link CompletionRules}), and a reset's {@code staleBelowJobId} need only cover every job
 * scheduled before it.
 */
final class Differences {

    /** Codes reported even where an event-by-event rule already reported the same event. */
    static final Set<AuditCode> NEVER_SUPPRESSED = Set.of(AuditCode.FLUSH_MISSING, AuditCode.EVENT_ORDER);

    /**
     * @param index         the index of the first differing event in the log's events of the command
     *                      (their size when the log lacks an event at the end)
     * @param omissionOnly  the log's events are the derived ones with some that change no job left out
     */
    record Found(int index, AuditCode code, String reason, boolean omissionOnly) {
    }

    private Differences() {
    }

    static Found first(List<EngineEvent> derived, List<LoggedEvent> logged, EngineEvent opener) {
        int i = 0;
        int common = Math.min(derived.size(), logged.size());
        while (i < common && same(derived.get(i), logged.get(i).event())) {
            i++;
        }
        if (i == derived.size() && i == logged.size()) {
            return null;
        }
        if (sameMultiset(derived.subList(i, derived.size()), logged.subList(i, logged.size()))) {
            return new Found(i, AuditCode.EVENT_ORDER, "the rules give " + EventText.of(derived.get(i)) + " here, but the "
                    + "log shows " + EventText.of(logged.get(i).event()) + ": the command's events are out of the "
                    + "contract's order", false);
        }
        EngineEvent want = i < derived.size() ? derived.get(i) : null;
        EngineEvent got = i < logged.size() ? logged.get(i).event() : null;
        if (want instanceof ChunksEvicted && !(opener instanceof LoadJobCompleted)) {
            Found storeLeftOut = roomNotTaken(i, derived, logged);
            if (storeLeftOut != null) {
                return storeLeftOut;
            }
        }
        if (got == null) {
            return missing(i, want, opener, omissionOnly(derived, logged));
        }
        if (want == null) {
            return EventClasses.extra(i, got, logged, opener);
        }
        AuditCode pair = EventClasses.pair(want, got, logged, i, opener);
        if (pair != null) {
            return new Found(i, pair, "the rules give " + EventText.of(want) + ", the log shows " + EventText.of(got)
                    + why(pair), false);
        }
        if (indexOfSame(derived, i + 1, got) >= 0) {
            return missing(i, want, opener, omissionOnly(derived, logged));
        }
        return EventClasses.extra(i, got, logged, opener);
    }

    private static String why(AuditCode code) {
        return switch (code) {
            case STORE_SPLIT -> ": one offer is made into more than one store job";
            case STORE_MISSING -> ": the job leaves out offered chunks the tier lacked, with no StoreDeferred";
            case EVICTION_NOT_LRU -> ": evictions are the least recently used ready, unpinned chunks outside the offer, "
                    + "least recently used first";
            case EVICTION_INVALID -> ": an eviction takes only ready, unpinned chunks outside the offer, and no more than it needs";
            case EVICTION_MISSING -> ": a failed load drops its chunks that no other load pins";
            case RELEASE_MISMATCH -> ": a release names the request's blocks in table order";
            case RESET_MISMATCH -> ": staleBelowJobId must cover every job scheduled before the reset";
            case ACK_MISMATCH -> ": a job ends at its workers-th completion, failed if any completion failed";
            default -> "";
        };
    }

    /**
     * The rules make room for a store the log does not make at all: the producer left the offer's chunks
     * out rather than evict (its tier's order kept other chunks, or it counts room otherwise). Contract 9.2
     * names that {@code STORE_MISSING} (policy), not {@code EVICTION_MISSING}, whose case is a failed load
     * only: without the store the tier never goes over its capacity, and if the log stores without the room,
     * {@code TIER_OVER_CAPACITY} says so. {@code null} when the log schedules or defers a store of that request here.
     */
    private static Found roomNotTaken(int index, List<EngineEvent> derived, List<LoggedEvent> logged) {
        StoreJobScheduled store = null;
        for (int k = index + 1; k < derived.size() && store == null; k++) {
            if (derived.get(k) instanceof StoreJobScheduled s) {
                store = s;
            }
        }
        if (store == null) {
            return null;
        }
        for (int k = index; k < logged.size(); k++) {
            EngineEvent shown = logged.get(k).event();
            if ((shown instanceof StoreJobScheduled || shown instanceof StoreDeferred)
                    && ((RequestEvent) shown).requestId().equals(store.requestId())) {
                return null; // the log stores or defers: the comparison names that difference
            }
        }
        return new Found(index, AuditCode.STORE_MISSING, "the rules give " + EventText.of(derived.get(index)) + " and "
                + EventText.of(store) + " here, the log shows neither: the offer's chunks are left out rather than "
                + "room made for them, with no StoreDeferred", false);
    }

    private static Found missing(int index, EngineEvent want, EngineEvent opener, boolean omissionOnly) {
        AuditCode code;
        if (want instanceof StoreJobScheduled) {
            code = AuditCode.STORE_MISSING;
        } else if (want instanceof StoreDeferred) {
            code = AuditCode.STORE_DEFERRED_MISMATCH;
        } else if (want instanceof ChunksEvicted) {
            code = AuditCode.EVICTION_MISSING;
        } else if (want instanceof ChunksStored) {
            code = AuditCode.CHUNKS_STORED_MISMATCH;
        } else if (want instanceof FlushRequired) {
            code = opener instanceof BlocksAllocated ? AuditCode.REUSE_WITHOUT_FLUSH : AuditCode.FLUSH_MISSING;
        } else if (want instanceof BlocksReleased) {
            code = AuditCode.RELEASE_MISSING;
        } else if (want instanceof LoadJobScheduled) {
            code = AuditCode.LOAD_MISMATCH;
        } else {
            code = AuditCode.STATE_MISMATCH;
        }
        return new Found(index, code, "the rules give " + EventText.of(want) + " here, which the log does not show",
                omissionOnly);
    }

    /** Whether the log's events are the derived ones in order with some events that change no job left out. */
    private static boolean omissionOnly(List<EngineEvent> derived, List<LoggedEvent> logged) {
        int j = 0;
        for (EngineEvent want : derived) {
            if (j < logged.size() && same(want, logged.get(j).event())) {
                if (isNewJob(want) && jobId(want) != jobId(logged.get(j).event())) {
                    return false; // the derived state would know the job under another id
                }
                j++;
            } else if (!CommandDerivation.isOmissible(want)) {
                return false;
            }
        }
        return j == logged.size();
    }

    static boolean same(EngineEvent want, EngineEvent got) {
        if (want instanceof StoreJobScheduled d && got instanceof StoreJobScheduled l) {
            return d.requestId().equals(l.requestId()) && d.chunkIndices().equals(l.chunkIndices())
                    && d.keys().equals(l.keys()) && d.blockIds().equals(l.blockIds());
        }
        if (want instanceof LoadJobScheduled d && got instanceof LoadJobScheduled l) {
            return d.requestId().equals(l.requestId()) && d.chunkIndices().equals(l.chunkIndices())
                    && d.keys().equals(l.keys()) && d.blockIds().equals(l.blockIds());
        }
        if (want instanceof CacheReset d && got instanceof CacheReset l) {
            return l.staleBelowJobId() >= d.staleBelowJobId();
        }
        return want.equals(got);
    }

    private static boolean isNewJob(EngineEvent event) {
        return event instanceof StoreJobScheduled || event instanceof LoadJobScheduled;
    }

    private static long jobId(EngineEvent event) {
        return event instanceof StoreJobScheduled s ? s.jobId() : event instanceof LoadJobScheduled l ? l.jobId() : -1;
    }

    private static int indexOfSame(List<EngineEvent> events, int from, EngineEvent event) {
        for (int k = from; k < events.size(); k++) {
            if (same(events.get(k), event)) {
                return k;
            }
        }
        return -1;
    }

    private static boolean sameMultiset(List<EngineEvent> derived, List<LoggedEvent> logged) {
        if (derived.size() != logged.size() || derived.isEmpty()) {
            return false;
        }
        List<EngineEvent> left = new ArrayList<>(derived);
        for (LoggedEvent line : logged) {
            int k = indexOfSame(left, 0, line.event());
            if (k < 0) {
                return false;
            }
            left.remove(k);
        }
        return true;
    }

    static boolean isCompletion(EngineEvent event) {
        return event instanceof StoreJobCompleted || event instanceof LoadJobCompleted || event instanceof TransferAcknowledged;
    }

    static boolean isMatch(EngineEvent event) {
        return event instanceof PrefixMatched || event instanceof PrefixMatchDeferred;
    }

    static boolean isTokens(EngineEvent event) {
        return event instanceof TokensAppended;
    }
}
