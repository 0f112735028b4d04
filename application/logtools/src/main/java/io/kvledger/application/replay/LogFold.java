package io.kvledger.application.replay;

import io.kvledger.domain.EngineFold;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.CacheReset;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.group.PerGroup;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Folds a captured log, event by event, with exactly the domain fold ({@link EngineFold#evolve}). The
 * only thing it adds is the {@link KeyMap}: the log's keys are put in terms of token-derived keys
 * before the fold sees them, so a log written by another implementation folds as kvledger's own
 * would. For kvledger's own logs the mapping is the identity. Replay, audit and explain all fold
 * through here, so they agree on every state.
 */
public final class LogFold {

    private final KeyMap keys = new KeyMap();
    private EngineState state;
    /** The step {@link #prepare} gave and {@link #complete} has not folded yet. */
    private FoldStep pending;
    /** What wrote the log, as its first {@code EngineConfigured} names it (contract 9.3); {@code null}: unnamed. */
    private String producer;

    /** A fold from the log's first event. */
    public LogFold() {
        this(null);
    }

    /**
     * A fold of a log that begins after {@code base}, the state before its first line (a store segment's
     * base): the events are folded from it as they would be after the lines before it.
     */
    public LogFold(EngineState base) {
        this.state = base;
    }

    /** Folds one event ({@code null}: a type this version does not know, which changes nothing); the step folded. */
    public FoldStep fold(long seq, EngineEvent logEvent) {
        return complete(prepare(seq, logEvent));
    }

    /**
     * The first half of a fold: the event put in token-derived keys against the current state, not folded yet.
     * The step's {@code before} is the current state and its {@code after} is {@code null}; read what the event
     * is judged or explained against now, then {@link #complete} it. The state is folded in place, so
     * {@code before} reads as the state before the event only until {@code complete}: nothing keeps it past that.
     */
    public FoldStep prepare(long seq, EngineEvent logEvent) {
        if (pending != null) {
            throw new IllegalStateException("seq " + pending.seq() + " was prepared and not completed");
        }
        EngineState before = state;
        if (logEvent == null) {
            pending = new FoldStep(seq, null, null, before, null, List.of());
        } else if (before != null && logEvent instanceof EngineConfigured) {
            // The configuration is the first event only: a second one restarts nothing (audit reports it).
            pending = new FoldStep(seq, logEvent, logEvent, before, null, List.of());
        } else {
            // Only a job's scheduling can conflict with the keys learnt so far.
            List<KeyConflict> conflicts = logEvent instanceof StoreJobScheduled || logEvent instanceof LoadJobScheduled
                    ? new ArrayList<>() : List.of();
            if (before == null && logEvent instanceof EngineConfigured configured) {
                producer = configured.producer();
            }
            EngineEvent event = before == null ? logEvent : inTokenKeys(before, logEvent, conflicts);
            pending = new FoldStep(seq, logEvent, event, before, null, conflicts);
        }
        return pending;
    }

    /**
     * Folds the step {@link #prepare} gave: the same step with its {@code after}, the new current state, and
     * without its {@code before}: what a tool needs of the state before is read from the prepared step.
     */
    public FoldStep complete(FoldStep prepared) {
        if (prepared != pending) {
            throw new IllegalStateException("seq " + prepared.seq() + " is not the step prepared last");
        }
        pending = null;
        EngineState before = state;
        EngineEvent event = prepared.event();
        if (!folds(prepared)) {
            return prepared.folded(before);
        }
        // What a failed store leaves to forget is known only before the fold ends its job.
        List<String> failedStoreKeys = null;
        if (event instanceof StoreJobCompleted e && !e.success() && before != null) {
            Job job = before.job(e.jobId());
            failedStoreKeys = job == null ? null : job.keys();
        }
        state = EngineFold.evolve(before, event);
        forgetKeysTheTierDropped(event, failedStoreKeys);
        return prepared.folded(state);
    }

    /**
     * Whether {@link #complete} folds this prepared step's event: not an unknown type, not a second
     * {@code EngineConfigured} (the configuration is the first event only).
     */
    public static boolean folds(FoldStep prepared) {
        return prepared.event() != null && !(prepared.before() != null && prepared.logEvent() instanceof EngineConfigured);
    }

    /**
     * Goes on from another state than the log's: the audit's, where the log left out an event the rules
     * require that changes no job, so the rest of the log is judged from what its producer had.
     */
    public void continueFrom(EngineState derived) {
        state = derived;
    }

    /** The {@code producer} of the log's {@code EngineConfigured} (contract 9.3), or {@code null}: none named, or not read. */
    public String producer() {
        return producer;
    }

    /** The state after the last event folded; {@code null} before the first. */
    public EngineState state() {
        return state;
    }

    /** The key the log used for a token-derived key (itself for kvledger's own logs). */
    public String logKeyOf(String tokenKey) {
        return keys.logKeyOf(tokenKey);
    }

    private EngineEvent inTokenKeys(EngineState before, EngineEvent event, List<KeyConflict> conflicts) {
        // A log in other keys is folded in kvledger's. A log in kvledger's own (nearly every log) is folded with the
        // request's own strings of them, equal and not the same: the tier then finds the chunks the rules name by
        // identity, where a 32-character compare (which C1 does not vectorise) was a twentieth of a grouped audit.
        // An event whose every key is already the request's is kept, not rebuilt.
        if (event instanceof StoreJobScheduled e) {
            PerGroup<String> mapped = groupKeys(before, e.requestId(), e.chunkIndices(), e.keys(), conflicts);
            return mapped == e.keys() ? e
                    : new StoreJobScheduled(e.jobId(), e.requestId(), e.chunkIndices(), mapped, e.blockIds());
        }
        if (event instanceof LoadJobScheduled e) {
            PerGroup<String> mapped = groupKeys(before, e.requestId(), e.chunkIndices(), e.keys(), conflicts);
            return mapped == e.keys() ? e
                    : new LoadJobScheduled(e.jobId(), e.requestId(), e.chunkIndices(), mapped, e.blockIds());
        }
        if (event instanceof ChunksStored e) {
            List<String> mapped = tokenKeys(e.keys());
            return mapped == e.keys() ? e : new ChunksStored(mapped);
        }
        if (event instanceof ChunksEvicted e) {
            List<String> mapped = tokenKeys(e.keys());
            return mapped == e.keys() ? e : new ChunksEvicted(mapped);
        }
        return event;
    }

    /** The token-derived keys of {@code logKeys} (the strings the keys were paired with): the very same list when each is its own. */
    private List<String> tokenKeys(List<String> logKeys) {
        List<String> mapped = null;
        for (int i = 0; i < logKeys.size(); i++) {
            String logKey = logKeys.get(i);
            String tokenKey = keys.tokenKeyOf(logKey);
            if (mapped == null && tokenKey != logKey) {
                mapped = new ArrayList<>(logKeys.subList(0, i));
            }
            if (mapped != null) {
                mapped.add(tokenKey);
            }
        }
        return mapped == null ? logKeys : mapped;
    }

    /**
     * Pairs each key with the chunk at the same position. A key whose chunk has no token-derived key
     * (an unknown or retired request, a chunk past the known tokens, more keys than chunks) stays as
     * the log wrote it: audit reports such a store on its own terms.
     */
    private PerGroup<String> groupKeys(EngineState before, String requestId, PerGroup<Integer> chunks, PerGroup<String> logKeys,
                                       List<KeyConflict> conflicts) {
        if (logKeys.groupCount() == 1) {
            List<String> logGroup = logKeys.group(0);
            List<String> mapped = chunkKeys(before, requestId, 0, chunks.group(0), logGroup, conflicts);
            return mapped == logGroup ? logKeys : PerGroup.single(mapped);
        }
        // A chunk is the pair (group, prefix) (contract 7.8): each group's keys pair with that group's chunks.
        List<List<String>> mapped = new ArrayList<>(logKeys.groupCount());
        boolean same = true;
        for (int g = 0; g < logKeys.groupCount(); g++) {
            List<Integer> groupChunks = g < chunks.groupCount() ? chunks.group(g) : List.of();
            List<String> logGroup = logKeys.group(g);
            List<String> groupMapped = chunkKeys(before, requestId, g, groupChunks, logGroup, conflicts);
            same &= groupMapped == logGroup;
            mapped.add(groupMapped);
        }
        return same ? logKeys : PerGroup.of(mapped);
    }

    /** The token-derived keys of one group's log keys (the request's own strings): the very same list when each is one. */
    private List<String> chunkKeys(EngineState before, String requestId, int g, List<Integer> chunks, List<String> logKeys,
                                   List<KeyConflict> conflicts) {
        RequestState request = before.heldRequest(requestId);
        EngineConfig config = before.config();
        int known = request == null ? 0 : request.keyCount(config, g);
        List<String> mapped = null;
        for (int i = 0; i < logKeys.size(); i++) {
            String logKey = logKeys.get(i);
            Integer chunk = i < chunks.size() ? chunks.get(i) : null;
            String tokenKey;
            if (request == null || chunk == null || chunk < 0 || chunk >= known || g >= config.groupCount()) {
                tokenKey = keys.tokenKeyOf(logKey);
            } else {
                tokenKey = request.key(config, g, chunk);
                KeyConflict conflict = keys.learn(logKey, tokenKey);
                if (conflict != null) {
                    conflicts.add(conflict);
                }
            }
            if (mapped == null && tokenKey != logKey) {
                mapped = new ArrayList<>(logKeys.size());
                mapped.addAll(logKeys.subList(0, i));
            }
            if (mapped != null) {
                mapped.add(tokenKey);
            }
        }
        return mapped == null ? logKeys : mapped;
    }

    private void forgetKeysTheTierDropped(EngineEvent event, List<String> failedStoreKeys) {
        if (event instanceof CacheReset) {
            keys.clear();
        } else if (event instanceof ChunksEvicted e) {
            forgetUnheld(e.keys());
        } else if (failedStoreKeys != null) {
            forgetUnheld(failedStoreKeys);
        }
    }

    /**
     * Forgets the pairings of chunks the tier no longer holds, except those a store in flight still writes:
     * its {@code ChunksStored} names them in the log's keys, which must still pair with the job's.
     */
    private void forgetUnheld(List<String> tokenKeys) {
        // An eviction names a key or two: each asks the jobs in flight directly (a set of every key every store
        // writes, made for each eviction, was a twentieth of the audit's thread). Many keys take the set once.
        Set<String> written = tokenKeys.size() <= 8 ? null : keysStoresWrite();
        List<String> forgotten = new ArrayList<>(tokenKeys.size());
        for (String key : tokenKeys) {
            if (!state.tier().holds(key) && !(written != null ? written.contains(key)
                    : state.jobs().anyValue(new StoreWriting(key)))) {
                forgotten.add(key);
            }
        }
        if (!forgotten.isEmpty()) {
            keys.forget(forgotten);
        }
    }

    /** Whether a job is a store that writes {@code key}: a class, since C1 makes a capturing lambda through JNI. */
    private record StoreWriting(String key) implements Predicate<Job> {
        @Override
        public boolean test(Job job) {
            return job.isStore() && job.keys().contains(key);
        }
    }

    private Set<String> keysStoresWrite() {
        Set<String> written = new HashSet<>();
        for (Job job : state.jobs().values()) {
            if (job.isStore()) {
                written.addAll(job.keys());
            }
        }
        return written;
    }
}
