package io.kvledger.simulation.shrink;

import io.kvledger.application.audit.AuditCode;
import io.kvledger.domain.EngineFold;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.ResetCache;
import io.kvledger.domain.decision.Decider;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobCompleted;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Engines with one rule changed, for tests only: each wraps the real {@link Decider} and rewrites the
 * events of the commands its rule is about (and the state they fold to); {@code src/main} is untouched.
 * {@code code} is what the audit must report in such an engine's log.
 */
enum EngineMutant implements BiFunction<EngineState, EngineCommand, Decision> {
    /** Lists evicted chunks most recently used first. */
    EVICTS_MOST_RECENT_FIRST(AuditCode.EVICTION_NOT_LRU) {
        List<EngineEvent> mutate(EngineState state, EngineCommand command, List<EngineEvent> events) {
            if (command instanceof CompleteTransfer) {
                return events; // a failed load's drop, not an eviction for room
            }
            return map(events, e -> e instanceof ChunksEvicted c ? new ChunksEvicted(reversed(c.keys())) : e);
        }
    },
    /** Preempts without flushing the request's stores in flight. */
    PREEMPTION_WITHOUT_FLUSH(AuditCode.FLUSH_MISSING) {
        List<EngineEvent> mutate(EngineState state, EngineCommand command, List<EngineEvent> events) {
            return command instanceof PreemptRequest ? events.stream().filter(e -> !(e instanceof FlushRequired)).toList() : events;
        }
    },
    /** Keeps the chunks of a failed load loadable (vLLM asserts instead). */
    FAILED_LOAD_KEEPS_CHUNKS(AuditCode.EVICTION_MISSING) {
        List<EngineEvent> mutate(EngineState state, EngineCommand command, List<EngineEvent> events) {
            boolean failedLoad = events.stream().anyMatch(e -> e instanceof LoadJobCompleted l && !l.success());
            return failedLoad ? events.stream().filter(e -> !(e instanceof ChunksEvicted)).toList() : events;
        }
    },
    /** A lookup that never reports hits from the tier. */
    LOOKUP_IGNORES_TIER(AuditCode.MATCH_MISMATCH) {
        List<EngineEvent> mutate(EngineState state, EngineCommand command, List<EngineEvent> events) {
            if (!(command instanceof MatchPrefix)) {
                return events;
            }
            return map(events, e -> e instanceof PrefixMatched m && m.externalTokens() > 0
                    ? new PrefixMatched(m.requestId(), m.gpuHitTokens(), 0, List.of()) : e);
        }
    },
    /** A job's last completion decides its success, whatever an earlier worker reported. */
    SUCCESS_IGNORES_EARLIER_FAILURE(AuditCode.ACK_MISMATCH) {
        List<EngineEvent> mutate(EngineState state, EngineCommand command, List<EngineEvent> events) {
            if (!(command instanceof CompleteTransfer complete) || !complete.success()) {
                return events;
            }
            Job job = state.job(complete.jobId());
            List<EngineEvent> mutated = new ArrayList<>();
            for (EngineEvent e : events) {
                if (e instanceof StoreJobCompleted s && !s.success() && job != null) {
                    mutated.add(new StoreJobCompleted(s.jobId(), s.requestId(), true));
                    mutated.add(new ChunksStored(job.keys()));
                } else {
                    mutated.add(e);
                }
            }
            return mutated;
        }
    },
    /** A reset's stale threshold one below the next job id. */
    RESET_STALE_OFF_BY_ONE(AuditCode.RESET_MISMATCH) {
        List<EngineEvent> mutate(EngineState state, EngineCommand command, List<EngineEvent> events) {
            if (!(command instanceof ResetCache)) {
                return events;
            }
            return map(events, e -> e instanceof CacheReset r && r.staleBelowJobId() > 0 ? new CacheReset(r.staleBelowJobId() - 1) : e);
        }
    },
    /** Releases blocks in reverse table order. */
    RELEASE_IN_REVERSE(AuditCode.RELEASE_MISMATCH) {
        List<EngineEvent> mutate(EngineState state, EngineCommand command, List<EngineEvent> events) {
            return map(events, e -> e instanceof BlocksReleased r && r.blockIds().flat().stream().distinct().count() > 1
                    ? new BlocksReleased(r.requestId(), reversed(r.blockIds().flat())) : e);
        }
    };

    final AuditCode code;

    EngineMutant(AuditCode code) {
        this.code = code;
    }

    abstract List<EngineEvent> mutate(EngineState state, EngineCommand command, List<EngineEvent> events);

    @Override
    public Decision apply(EngineState state, EngineCommand command) {
        Decision real = Decider.decide(state, command);
        if (!(real instanceof Decision.Accepted accepted)) {
            return real;
        }
        List<EngineEvent> events = mutate(state, command, accepted.events());
        if (events.equals(accepted.events())) {
            return real;
        }
        return new Decision.Accepted(events);
    }

    private static List<EngineEvent> map(List<EngineEvent> events, java.util.function.UnaryOperator<EngineEvent> change) {
        return events.stream().map(change).toList();
    }

    private static <T> List<T> reversed(List<T> list) {
        List<T> copy = new ArrayList<>(list);
        Collections.reverse(copy);
        return copy;
    }
}
