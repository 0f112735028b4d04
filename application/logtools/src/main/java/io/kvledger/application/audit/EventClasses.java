package io.kvledger.application.audit;

import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.RequestEvent;
import io.kvledger.domain.event.StoreDeferred;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TransferAcknowledged;
import io.kvledger.domain.rules.StoreOffer;
import io.kvledger.domain.state.CpuTier;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.TierChunk;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Which code names a derived event the log shows otherwise, or a logged event the rules do not give. */
final class EventClasses {

    private EventClasses() {
    }

    /** The code when the rules give {@code want} where the log shows {@code got}; {@code null} when no pair fits. */
    static AuditCode pair(EngineEvent want, EngineEvent got, List<LoggedEvent> logged, int index, EngineEvent opener) {
        if (want instanceof StoreJobScheduled d && got instanceof StoreJobScheduled l) {
            return store(d, l, logged, index);
        }
        if ((want instanceof StoreDeferred && (got instanceof StoreDeferred || got instanceof ChunksEvicted
                || got instanceof StoreJobScheduled)) || (got instanceof StoreDeferred
                && (want instanceof ChunksEvicted || want instanceof StoreJobScheduled))) {
            return AuditCode.STORE_DEFERRED_MISMATCH;
        }
        if (want instanceof ChunksEvicted d && got instanceof ChunksEvicted l) {
            return eviction(d, l, logged, index, opener);
        }
        if (Differences.isCompletion(want) && Differences.isCompletion(got)) {
            return completion(want, got);
        }
        if (Differences.isMatch(want) && Differences.isMatch(got)) {
            return AuditCode.MATCH_MISMATCH;
        }
        if (want.getClass() != got.getClass()) {
            return null;
        }
        if (want instanceof ChunksStored) {
            return AuditCode.CHUNKS_STORED_MISMATCH;
        } else if (want instanceof FlushRequired) {
            return AuditCode.FLUSH_MISMATCH;
        } else if (want instanceof BlocksReleased) {
            return AuditCode.RELEASE_MISMATCH;
        } else if (want instanceof LoadJobScheduled) {
            return AuditCode.LOAD_MISMATCH;
        } else if (want instanceof CacheReset) {
            return AuditCode.RESET_MISMATCH;
        }
        return AuditCode.STATE_MISMATCH;
    }

    /** A logged event at {@code index} that the rules do not give there. */
    static Differences.Found extra(int index, EngineEvent got, List<LoggedEvent> logged, EngineEvent opener) {
        AuditCode code;
        String why = "";
        if (got instanceof StoreJobScheduled || got instanceof StoreDeferred) {
            String requestId = ((RequestEvent) got).requestId();
            EngineEvent previous = index > 0 ? logged.get(index - 1).event() : null;
            if (!CommandRebuild.triggersOffer(opener, requestId)) {
                code = AuditCode.STORE_WITHOUT_TRIGGER;
                why = ": no ComputeTokens, AbortRequest or FinishRequest of request " + requestId + " made it";
            } else if (previous instanceof StoreJobScheduled p && p.requestId().equals(requestId)) {
                code = AuditCode.STORE_SPLIT;
                why = ": one offer makes one store job";
            } else if (got instanceof StoreDeferred) {
                code = AuditCode.STORE_DEFERRED_MISMATCH;
                why = ": the tier had room, or nothing was offered";
            } else if (holdsAny(logged.get(index).before().tier(), ((StoreJobScheduled) got).keys().flat())) {
                code = AuditCode.DUPLICATE_STORE;
                why = ": the tier already holds its chunks";
            } else {
                code = AuditCode.STORE_WITHOUT_TRIGGER;
                why = ": the command offers nothing to store (s >= S)";
            }
        } else if (got instanceof ChunksEvicted) {
            code = AuditCode.EVICTION_INVALID;
            why = ": no store of this command needs the room";
        } else if (got instanceof ChunksStored) {
            code = AuditCode.CHUNKS_STORED_MISMATCH;
        } else if (got instanceof FlushRequired) {
            code = AuditCode.FLUSH_MISMATCH;
        } else if (got instanceof BlocksReleased) {
            code = AuditCode.RELEASE_MISMATCH;
        } else if (got instanceof LoadJobScheduled) {
            code = AuditCode.LOAD_MISMATCH;
        } else if (Differences.isMatch(got)) {
            code = AuditCode.MATCH_MISMATCH;
        } else {
            code = AuditCode.STATE_MISMATCH;
        }
        return new Differences.Found(index, code, "the log shows " + EventText.of(got) + ", which the rules do not give"
                + " here" + why, false);
    }

    private static AuditCode store(StoreJobScheduled want, StoreJobScheduled got, List<LoggedEvent> logged, int index) {
        if (!want.requestId().equals(got.requestId())) {
            return AuditCode.STORE_WITHOUT_TRIGGER;
        }
        Set<Integer> wanted = new HashSet<>(want.chunkIndices().flat());
        if (wanted.containsAll(got.chunkIndices().flat()) && got.chunkIndices().flat().size() < want.chunkIndices().flat().size()) {
            EngineEvent next = index + 1 < logged.size() ? logged.get(index + 1).event() : null;
            return next instanceof StoreJobScheduled n && n.requestId().equals(got.requestId())
                    ? AuditCode.STORE_SPLIT : AuditCode.STORE_MISSING;
        }
        if (holdsAny(logged.get(index).before().tier(), got.keys().flat())) {
            return AuditCode.DUPLICATE_STORE;
        }
        return AuditCode.STORE_SLICE_MISMATCH;
    }

    private static AuditCode eviction(ChunksEvicted want, ChunksEvicted got, List<LoggedEvent> logged, int index,
                                      EngineEvent opener) {
        EngineState before = logged.get(index).before();
        CpuTier tier = before.tier();
        Set<String> offered = new HashSet<>();
        if (opener instanceof RequestEvent e && before.liveRequest(e.requestId()) != null) {
            RequestState request = before.liveRequest(e.requestId());
            offered.addAll(StoreOffer.of(before.config(), tier, request).keys());
        }
        boolean failedLoad = opener instanceof LoadJobCompleted;
        for (String key : got.keys()) {
            TierChunk chunk = tier.chunk(key);
            if (chunk == null || (!failedLoad && (chunk.pins() > 0 || !chunk.ready() || offered.contains(key)))) {
                return AuditCode.EVICTION_INVALID;
            }
        }
        if (failedLoad) {
            return want.keys().containsAll(got.keys()) ? AuditCode.EVICTION_MISSING : AuditCode.EVICTION_INVALID;
        }
        if (got.keys().size() == want.keys().size()) {
            return AuditCode.EVICTION_NOT_LRU;
        }
        // Other victims than the rules', ready and unpinned, and exactly the room the log's own store of this
        // command needs: the producer's tier order and offer differ from the rules' (policy), its room does not.
        return new HashSet<>(got.keys()).size() == roomTheLogsStoreNeeds(tier, logged, index)
                ? AuditCode.EVICTION_NOT_LRU : AuditCode.EVICTION_INVALID;
    }

    /** How many chunks the tier must drop for the stores the log schedules after {@code index} in this command. */
    private static int roomTheLogsStoreNeeds(CpuTier tier, List<LoggedEvent> logged, int index) {
        Set<String> added = new HashSet<>();
        for (int k = index + 1; k < logged.size(); k++) {
            if (logged.get(k).event() instanceof StoreJobScheduled store) {
                for (String key : store.keys().flat()) {
                    if (!tier.holds(key)) {
                        added.add(key);
                    }
                }
            }
        }
        return Math.max(0, tier.size() + added.size() - tier.capacity());
    }

    private static AuditCode completion(EngineEvent want, EngineEvent got) {
        boolean wantAck = want instanceof TransferAcknowledged;
        boolean gotAck = got instanceof TransferAcknowledged;
        if (wantAck != gotAck) {
            return AuditCode.ACK_MISMATCH;
        }
        if (want.getClass() != got.getClass() || !((RequestEvent) want).requestId().equals(((RequestEvent) got).requestId())) {
            return AuditCode.JOB_MISMATCH;
        }
        return AuditCode.ACK_MISMATCH; // the same job, the same kind: its success flag differs
    }

    private static boolean holdsAny(CpuTier tier, List<String> keys) {
        for (String key : keys) {
            if (tier.holds(key)) {
                return true;
            }
        }
        return false;
    }
}
