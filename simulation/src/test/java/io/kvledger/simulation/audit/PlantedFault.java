package io.kvledger.simulation.audit;

import static io.kvledger.simulation.audit.CleanLogEdits.failedBefore;
import static io.kvledger.simulation.audit.CleanLogEdits.firstPart;
import static io.kvledger.simulation.audit.CleanLogEdits.isStore;
import static io.kvledger.simulation.audit.CleanLogEdits.opensAt;
import static io.kvledger.simulation.audit.CleanLogEdits.pick;
import static io.kvledger.simulation.audit.CleanLogEdits.pickOpener;
import static io.kvledger.simulation.audit.CleanLogEdits.releasesOwnJobsBlock;
import static io.kvledger.simulation.audit.CleanLogEdits.replace;
import static io.kvledger.simulation.audit.CleanLogEdits.reversed;

import io.kvledger.application.audit.AuditCode;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.DeferReason;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatchDeferred;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RequestPreempted;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.event.TokensRejected;
import io.kvledger.domain.event.TransferAcknowledged;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * One kind of fault planted into a clean log: where it can go, what it changes, and the code and seq
 * the audit must report. Faults change the log only (the events, as another producer might have
 * written them); the rest of the log stays as the clean run wrote it.
 */
enum PlantedFault {
    STORE_BLOCK_DROPPED(AuditCode.STORE_SLICE_MISMATCH) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof StoreJobScheduled s && !s.blockIds().isEmpty());
            if (i < 0) return null;
            StoreJobScheduled s = (StoreJobScheduled) log.get(i);
            return at(replace(log, i, new StoreJobScheduled(s.jobId(), s.requestId(), s.chunkIndices().flat(), s.keys().flat(),
                    s.blockIds().flat().subList(0, s.blockIds().flat().size() - 1))), i);
        }
    },
    STORE_FOREIGN_BLOCK(AuditCode.STORE_BEYOND_ALLOCATED) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof StoreJobScheduled s && !s.blockIds().isEmpty());
            if (i < 0) return null;
            StoreJobScheduled s = (StoreJobScheduled) log.get(i);
            List<Integer> blocks = new ArrayList<>(s.blockIds().flat());
            blocks.set(0, 999_999);
            return at(replace(log, i, new StoreJobScheduled(s.jobId(), s.requestId(), s.chunkIndices().flat(), s.keys().flat(), blocks)), i);
        }
    },
    STORE_CHUNK_LEFT_OUT(AuditCode.STORE_MISSING) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof StoreJobScheduled s && s.chunkIndices().flat().size() >= 2);
            if (i < 0) return null;
            return at(replace(log, i, firstPart((StoreJobScheduled) log.get(i), ((StoreJobScheduled) log.get(i)).jobId())), i);
        }
    },
    STORE_SPLIT_IN_TWO(AuditCode.STORE_SPLIT) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof StoreJobScheduled s && s.chunkIndices().flat().size() >= 2);
            if (i < 0) return null;
            StoreJobScheduled s = (StoreJobScheduled) log.get(i);
            int n = s.chunkIndices().flat().size();
            int f = s.blockIds().flat().size() / n;
            List<EngineEvent> planted = replace(log, i, firstPart(s, s.jobId()));
            planted.add(i + 1, new StoreJobScheduled(1_000_000_000L + i, s.requestId(), s.chunkIndices().flat().subList(n - 1, n),
                    s.keys().flat().subList(n - 1, n), s.blockIds().flat().subList((n - 1) * f, n * f)));
            return at(planted, i);
        }
    },
    CHUNKS_STORED_LEFT_OUT(AuditCode.CHUNKS_STORED_MISMATCH) {
        Planted plant(List<EngineEvent> log, Random random) {
            return removed(log, pick(log, random, (e, k) -> e instanceof ChunksStored));
        }
    },
    RELEASE_LEFT_OUT(AuditCode.RELEASE_MISSING) {
        Planted plant(List<EngineEvent> log, Random random) {
            return removed(log, pick(log, random, (e, k) -> e instanceof BlocksReleased));
        }
    },
    RELEASE_REORDERED(AuditCode.RELEASE_MISMATCH) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof BlocksReleased r && r.blockIds().flat().stream().distinct().count() >= 2);
            if (i < 0) return null;
            BlocksReleased r = (BlocksReleased) log.get(i);
            return at(replace(log, i, new BlocksReleased(r.requestId(), reversed(r.blockIds().flat()))), i);
        }
    },
    PREEMPTION_FLUSH_LEFT_OUT(AuditCode.FLUSH_MISSING) {
        Planted plant(List<EngineEvent> log, Random random) {
            return removed(log, pick(log, random, (e, k) -> e instanceof FlushRequired && log.get(k - 1) instanceof RequestPreempted));
        }
    },
    /** A reset without its flush, where it then releases blocks of a terminated request's own job in flight. */
    RESET_FLUSH_LEFT_OUT(AuditCode.RELEASE_WHILE_IN_FLIGHT) {
        Planted plant(List<EngineEvent> log, Random random) {
            return removed(log, pick(log, random, (e, k) -> e instanceof FlushRequired f && log.get(k - 1) instanceof CacheReset
                    && k + 1 < log.size() && log.get(k + 1) instanceof BlocksReleased r && releasesOwnJobsBlock(log, k, f, r)));
        }
    },
    ALLOCATION_FLUSH_LEFT_OUT(AuditCode.REUSE_WITHOUT_FLUSH) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof FlushRequired && k + 1 < log.size()
                    && log.get(k + 1) instanceof BlocksAllocated);
            if (i < 0) return null;
            List<EngineEvent> planted = new ArrayList<>(log);
            planted.remove(i);
            return at(planted, i); // at the allocation that hands the fenced blocks out
        }
    },
    FLUSH_BLOCK_LEFT_OUT(AuditCode.FLUSH_MISMATCH) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof FlushRequired f && f.blockIds().size() >= 2);
            if (i < 0) return null;
            FlushRequired f = (FlushRequired) log.get(i);
            return at(replace(log, i, new FlushRequired(f.jobIds(), f.blockIds().subList(0, f.blockIds().size() - 1))), i);
        }
    },
    EVICTION_NOT_LEAST_RECENT_FIRST(AuditCode.EVICTION_NOT_LRU) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof ChunksEvicted c && c.keys().size() >= 2
                    && !(log.get(k - 1) instanceof LoadJobCompleted));
            if (i < 0) return null;
            return at(replace(log, i, new ChunksEvicted(reversed(((ChunksEvicted) log.get(i)).keys()))), i);
        }
    },
    FAILED_LOAD_KEEPS_CHUNKS(AuditCode.EVICTION_MISSING) {
        Planted plant(List<EngineEvent> log, Random random) {
            return removed(log, pick(log, random, (e, k) -> e instanceof ChunksEvicted && log.get(k - 1) instanceof LoadJobCompleted));
        }
    },
    MATCH_MISSES_HITS(AuditCode.MATCH_MISMATCH) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof PrefixMatched m && m.externalTokens() > 0);
            if (i < 0) return null;
            PrefixMatched m = (PrefixMatched) log.get(i);
            return at(replace(log, i, new PrefixMatched(m.requestId(), m.gpuHitTokens(), 0, List.of())), i);
        }
    },
    DEFERRAL_OTHER_REASON(AuditCode.MATCH_MISMATCH) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof PrefixMatchDeferred);
            if (i < 0) return null;
            PrefixMatchDeferred d = (PrefixMatchDeferred) log.get(i);
            DeferReason other = DeferReason.values()[(d.reason().ordinal() + 1) % DeferReason.values().length];
            return at(replace(log, i, new PrefixMatchDeferred(d.requestId(), d.gpuHitTokens(), other)), i);
        }
    },
    LOAD_OTHER_BLOCKS(AuditCode.LOAD_MISMATCH) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof LoadJobScheduled);
            if (i < 0) return null;
            LoadJobScheduled l = (LoadJobScheduled) log.get(i);
            List<Integer> blocks = l.blockIds().flat().stream().distinct().count() >= 2 ? reversed(l.blockIds().flat()) : List.of(999_999);
            return at(replace(log, i, new LoadJobScheduled(l.jobId(), l.requestId(), l.chunkIndices().flat(), l.keys().flat(), blocks)), i);
        }
    },
    LOAD_KEY_FORGED(AuditCode.KEY_MISMATCH) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof LoadJobScheduled l && !l.keys().isEmpty());
            if (i < 0) return null;
            LoadJobScheduled l = (LoadJobScheduled) log.get(i);
            List<String> keys = new ArrayList<>(l.keys().flat());
            keys.set(0, "forged-" + i);
            return at(replace(log, i, new LoadJobScheduled(l.jobId(), l.requestId(), l.chunkIndices().flat(), keys, l.blockIds().flat())), i);
        }
    },
    ACKNOWLEDGEMENT_ENDS_JOB(AuditCode.ACK_MISMATCH) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof TransferAcknowledged a && isStore(log, a.jobId(), k));
            if (i < 0) return null;
            TransferAcknowledged a = (TransferAcknowledged) log.get(i);
            return at(replace(log, i, new StoreJobCompleted(a.jobId(), a.requestId(), a.success())), i);
        }
    },
    SUCCESS_FLIPPED(AuditCode.ACK_MISMATCH) {
        Planted plant(List<EngineEvent> log, Random random) {
            // Only a job an earlier completion failed: a job's own last completion may say either.
            int i = pick(log, random, (e, k) -> e instanceof StoreJobCompleted c && !c.success() && failedBefore(log, c.jobId(), k));
            if (i < 0) return null;
            StoreJobCompleted c = (StoreJobCompleted) log.get(i);
            return at(replace(log, i, new StoreJobCompleted(c.jobId(), c.requestId(), true)), i);
        }
    },
    COMPLETION_OF_OTHER_REQUEST(AuditCode.JOB_MISMATCH) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof StoreJobCompleted);
            if (i < 0) return null;
            StoreJobCompleted c = (StoreJobCompleted) log.get(i);
            return at(replace(log, i, new StoreJobCompleted(c.jobId(), c.requestId() + "-other", c.success())), i);
        }
    },
    COMPLETION_REPEATED(AuditCode.JOB_COMPLETED_TWICE) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof StoreJobCompleted);
            if (i < 0) return null;
            StoreJobCompleted c = (StoreJobCompleted) log.get(i);
            boolean stale = log.subList(i, log.size()).stream().anyMatch(e -> e instanceof CacheReset r && r.staleBelowJobId() > c.jobId());
            List<EngineEvent> planted = new ArrayList<>(log);
            planted.add(c);
            return new Planted(planted, stale ? AuditCode.STALE_JOB_COMPLETED : AuditCode.JOB_COMPLETED_TWICE, planted.size());
        }
    },
    COMPLETION_OF_UNKNOWN_JOB(AuditCode.UNKNOWN_JOB) {
        Planted plant(List<EngineEvent> log, Random random) {
            List<EngineEvent> planted = new ArrayList<>(log);
            planted.add(new StoreJobCompleted(1_000_000_000_000L, "r0", true));
            return at(planted, planted.size() - 1);
        }
    },
    COMPUTED_NOT_RAISED(AuditCode.STATE_MISMATCH) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof TokensComputed);
            if (i < 0) return null;
            TokensComputed t = (TokensComputed) log.get(i);
            int before = EngineFold.fold(log.subList(0, i)).liveRequest(t.requestId()).computed();
            return at(replace(log, i, new TokensComputed(t.requestId(), before)), i);
        }
    },
    APPENDED_MISCOUNTED(AuditCode.STATE_MISMATCH) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof TokensAppended);
            if (i < 0) return null;
            TokensAppended t = (TokensAppended) log.get(i);
            return at(replace(log, i, new TokensAppended(t.requestId(), t.numTokens() + 1, t.tokens())), i);
        }
    },
    REJECTED_BELOW_FLOOR(AuditCode.STATE_MISMATCH) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof TokensRejected);
            if (i < 0) return null;
            TokensRejected t = (TokensRejected) log.get(i);
            EngineState state = EngineFold.fold(log.subList(0, i));
            RequestState r = state.liveRequest(t.requestId());
            int floor = Math.max(r.numTokens() - 1, r.cursor() * state.config().chunkTokens());
            return at(replace(log, i, new TokensRejected(t.requestId(), floor - 1)), i);
        }
    },
    RESET_STALE_TOO_LOW(AuditCode.RESET_MISMATCH) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof CacheReset r && r.staleBelowJobId() > 0);
            if (i < 0) return null;
            return at(replace(log, i, new CacheReset(((CacheReset) log.get(i)).staleBelowJobId() - 1)), i);
        }
    },
    JOB_ID_SCHEDULED_AGAIN(AuditCode.DUPLICATE_JOB_ID) {
        Planted plant(List<EngineEvent> log, Random random) {
            int first = pick(log, null, (e, k) -> e instanceof StoreJobScheduled);
            int i = pick(log, random, (e, k) -> e instanceof StoreJobScheduled && first >= 0 && k > first);
            if (i < 0) return null;
            StoreJobScheduled s = (StoreJobScheduled) log.get(i);
            long earlier = ((StoreJobScheduled) log.get(first)).jobId();
            return at(replace(log, i, new StoreJobScheduled(earlier, s.requestId(), s.chunkIndices(), s.keys(), s.blockIds())), i);
        }
    },
    SECOND_CONFIGURATION(AuditCode.EVENT_ORDER) {
        Planted plant(List<EngineEvent> log, Random random) {
            return inserted(log, pickOpener(log, random), log.get(0));
        }
    },
    RELEASE_BEFORE_CHUNKS_STORED(AuditCode.EVENT_ORDER) {
        Planted plant(List<EngineEvent> log, Random random) {
            int i = pick(log, random, (e, k) -> e instanceof ChunksStored && k + 1 < log.size() && log.get(k + 1) instanceof BlocksReleased);
            if (i < 0) return null;
            List<EngineEvent> planted = new ArrayList<>(log);
            planted.set(i, log.get(i + 1));
            planted.set(i + 1, log.get(i));
            return at(planted, i);
        }
    },
    EVENT_OF_UNKNOWN_REQUEST(AuditCode.UNKNOWN_REQUEST) {
        Planted plant(List<EngineEvent> log, Random random) {
            return inserted(log, pickOpener(log, random), new TokensAppended("ghost", 1, List.of(7)));
        }
    },
    REQUEST_REGISTERED_AGAIN(AuditCode.DUPLICATE_REQUEST) {
        Planted plant(List<EngineEvent> log, Random random) {
            int at = pickOpener(log, random);
            int registered = pick(log, null, (e, k) -> e instanceof RequestRegistered && k < at);
            return registered < 0 ? null : inserted(log, at, log.get(registered));
        }
    };

    final AuditCode code;

    PlantedFault(AuditCode code) {
        this.code = code;
    }

    /** The planted log and what the audit must report; {@code null} when this log has no place for the fault. */
    abstract Planted plant(List<EngineEvent> log, Random random);

    /** @param seq the seq of the event the finding must name (event {@code i} has seq {@code i + 1}) */
    record Planted(List<EngineEvent> log, AuditCode code, long seq) {
    }

    Planted at(List<EngineEvent> planted, int index) {
        return new Planted(planted, code, index + 1);
    }

    /** A left-out event is reported at the event now in its place, or at the command's last one when none is. */
    Planted removed(List<EngineEvent> log, int i) {
        if (i < 0) {
            return null;
        }
        List<EngineEvent> planted = new ArrayList<>(log);
        planted.remove(i);
        boolean sameCommand = i < planted.size() && !opensAt(planted, i);
        return new Planted(planted, code, sameCommand ? i + 1 : i);
    }

    Planted inserted(List<EngineEvent> log, int i, EngineEvent event) {
        if (i < 0) {
            return null;
        }
        List<EngineEvent> planted = new ArrayList<>(log);
        planted.add(i, event);
        return at(planted, i);
    }
}
