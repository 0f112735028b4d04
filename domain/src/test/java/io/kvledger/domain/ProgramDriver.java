package io.kvledger.domain;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.PreemptRequest;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.command.RequestCommand;
import io.kvledger.domain.command.ResetCache;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.decision.Decider;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.LoadJobScheduled;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.rules.StoreBound;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.Job;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.EdgeCasesMode;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * Interprets generated programs against the live state, one command at a time, and checks the
 * invariants of {@link DeciderPropertiesTest} after every command.
 */
final class ProgramDriver {

    private final EngineConfig config;
    private final List<EngineEvent> log = new ArrayList<>();
    private final List<String> commands = new ArrayList<>();
    private final ProgramCommands generator;
    private final Set<Long> scheduledJobIds = new HashSet<>();
    private final java.util.function.BiFunction<EngineState, EngineCommand, Decision> decide;
    private EngineState state;
    private long lastJobId = -1;
    int storesScheduled;
    int terminatedHolding;

    ProgramDriver(EngineConfig config) {
        this(config, Decider::decide);
    }

    /** With another decide function: lets a test check that the checks catch a broken decision. */
    ProgramDriver(EngineConfig config, java.util.function.BiFunction<EngineState, EngineCommand, Decision> decide) {
        this.config = config;
        this.decide = decide;
        this.generator = new ProgramCommands(config);
        EngineEvent configured = Decider.configure(config);
        log.add(configured);
        state = EngineFold.fold(log);
    }

    void run(ProgramCommands.Step step) {
        run(generator.command(state, step));
    }

    void run(EngineCommand command) {
        commands.add(command.toString());
        // The state is folded in place: what is checked against the state before the command reads a copy.
        EngineState before = state.copy();
        Decision decision;
        try {
            decision = decide.apply(state, command);
        } catch (RuntimeException | StackOverflowError e) {
            throw failure("(vii) decide threw " + e, e);
        }
        List<EngineEvent> events = decision.events(commands.size(), command);
        EngineState at = state;
        for (EngineEvent event : events) {
            checkBeforeFold(at, event);
            try {
                at = EngineFold.evolve(at, event);
            } catch (RuntimeException e) {
                throw failure("(vii) evolve threw " + e + " on " + event, e);
            }
            check(at.tier().size() <= config.cpuCapacityChunks(),
                    "(iv) the tier holds " + at.tier().size() + " chunks, capacity " + config.cpuCapacityChunks()
                            + ", after " + event);
            log.add(event);
            if (event instanceof PrefixMatched matched) {
                generator.matched(matched);
            }
        }
        if (decision instanceof Decision.Accepted) {
            check(decide.apply(before, command).equals(decision),
                    "(i) the same command on the same state decided otherwise: decide is not a function of them");
            state = at;
        } else {
            check(events.size() == 1 && events.get(0) instanceof CommandRejected,
                    "a rejection is recorded as one CommandRejected: " + events);
            check(at.equals(before), "(ii) a rejected command changed the state");
            state = at;
        }
        EngineState replayed;
        try {
            replayed = EngineFold.fold(log);
        } catch (RuntimeException e) {
            throw failure("(vii) replay threw " + e, e);
        }
        check(replayed.equals(state), "(i) EngineFold.fold(all events so far) differs from the live state");
        checkTerminated(before, command, decision);
        checkJobsOfRequests();
        checkTierAgainstJobs();
    }

    void collectStatistics() {
        Map<String, Long> types = log.stream().collect(Collectors.groupingBy(e -> e.getClass().getSimpleName(),
                Collectors.counting()));
        for (String type : List.of("StoreJobScheduled", "LoadJobScheduled", "StoreDeferred", "ChunksEvicted",
                "FlushRequired", "PrefixMatchDeferred", "TransferAcknowledged", "CacheReset", "RequestAborted")) {
            Statistics.label(type).collect(types.getOrDefault(type, 0L) > 0);
        }
        Statistics.label("length").collect(commands.size() / 20 * 20);
        Statistics.label("released by a terminated request").collect(terminatedHolding > 0);
        Statistics.label("accepted share").collect(
                (int) (10 * (1 - (double) types.getOrDefault("CommandRejected", 0L) / Math.max(1, commands.size()))) * 10 + "%");
    }

    List<EngineEvent> log() {
        return log;
    }

    void finish() {
        check(EngineFold.fold(log).equals(state), "(i) replay at the end");
    }

    private void checkBeforeFold(EngineState at, EngineEvent event) {
        if (event instanceof StoreJobScheduled store) {
            storesScheduled++;
            checkJobId(store.jobId());
            checkStore(at, store);
        } else if (event instanceof LoadJobScheduled load) {
            checkJobId(load.jobId());
            check(load.keys().flat().size() == load.chunkIndices().flat().size(), "load keys and chunks disagree: " + load);
        } else if (event instanceof BlocksReleased released) {
            check(!released.blockIds().isEmpty(), "(vi) an empty BlocksReleased: " + released);
            RequestState request = at.heldRequest(released.requestId());
            check(request != null, "(vi) a release for a request that is not live: " + released);
            List<Integer> table = new ArrayList<>(request.blockTable().asJava());
            for (Integer block : released.blockIds().flat()) {
                check(table.remove(block), "(vi) released block " + block + " is not in the table "
                        + request.blockTable() + ": " + released);
            }
            if (request.isTerminal()) {
                terminatedHolding++;
            }
        } else if (event instanceof FlushRequired flush) {
            check(!flush.jobIds().isEmpty(), "an empty FlushRequired: " + flush);
            for (int i = 1; i < flush.jobIds().size(); i++) {
                check(flush.jobIds().get(i - 1) < flush.jobIds().get(i), "FlushRequired jobIds ascend: " + flush);
            }
            check(new HashSet<>(flush.blockIds()).size() == flush.blockIds().size(),
                    "FlushRequired blockIds repeat: " + flush);
        }
    }

    private void checkJobId(long jobId) {
        check(scheduledJobIds.add(jobId), "(v) job id " + jobId + " was scheduled before");
        check(jobId > lastJobId, "(v) job id " + jobId + " after " + lastJobId + " does not ascend");
        check(jobId == lastJobId + 1, "(v) job ids are integers from 0 in scheduling order: " + jobId
                + " after " + lastJobId);
        lastJobId = jobId;
    }

    private void checkStore(EngineState at, StoreJobScheduled store) {
        int f = config.blocksPerChunk();
        int n = store.chunkIndices().flat().size();
        check(n > 0, "(iii) an empty store: " + store);
        check(store.keys().flat().size() == n, "(iii) keys.size() != chunkIndices.size(): " + store);
        check(store.blockIds().flat().size() == f * n, "(iii) blockIds.size() != F * chunkIndices.size(): " + store);
        RequestState request = at.heldRequest(store.requestId());
        check(request != null, "(iii) a store of a request that is not live: " + store);
        int bound = StoreBound.tokenBound(config, request) / config.chunkTokens();
        for (int i = 0; i < n; i++) {
            int chunk = store.chunkIndices().flat().get(i);
            check(chunk < bound, "(iii) chunk " + chunk + " is not below floor(tokenBound/C) = " + bound
                    + " (c = " + request.computed() + ", n = " + request.numTokens() + "): " + store);
            check(chunk >= request.cursor(), "(iii) chunk " + chunk + " is below the cursor " + request.cursor());
            check(i == 0 || chunk > store.chunkIndices().flat().get(i - 1), "(iii) chunks ascend: " + store);
            check(chunk < request.keyCount(f), "(iii) chunk " + chunk + " has no key: " + store);
            check(request.key(chunk, f).equals(store.keys().flat().get(i)), "(iii) key of chunk " + chunk + ": " + store);
            for (int j = 0; j < f; j++) {
                int slot = chunk * f + j;
                check(slot < request.blockTable().size(), "(iii) chunk " + chunk + " lies past the table "
                        + request.blockTable() + ": " + store);
                check(request.blockTable().get(slot).equals(store.blockIds().flat().get(i * f + j)),
                        "(iii) source block " + store.blockIds().flat().get(i * f + j) + " is not slot " + slot
                                + " of the table " + request.blockTable() + ": " + store);
            }
        }
    }

    /** After AbortRequest or FinishRequest, every command for the request but its completions is rejected. */
    private void checkTerminated(EngineState before, EngineCommand command, Decision decision) {
        if (!(command instanceof RequestCommand request) || !before.isTerminated(request.requestId())) {
            return;
        }
        RejectionCode expected = command instanceof RegisterRequest ? RejectionCode.DUPLICATE_REQUEST
                : RejectionCode.REQUEST_TERMINATED;
        check(decision instanceof Decision.Rejected rejected && rejected.code() == expected,
                "a command for terminated request " + request.requestId() + " must be " + expected + ", was "
                        + decision);
    }

    /**
     * The tier holds a chunk that is ready or being written: a chunk not ready is exactly one being written
     * by a store in flight; pins are counted: a chunk's pins are the loads in flight that read it; a live
     * request is LOADING exactly while its load is in flight (unless it has ended).
     */
    private void checkTierAgainstJobs() {
        Map<String, Integer> writing = new HashMap<>();
        Map<String, Integer> loading = new HashMap<>();
        for (Job job : state.jobs().values()) {
            for (String key : job.keys()) {
                (job.isStore() ? writing : loading).merge(key, 1, Integer::sum);
            }
        }
        for (var chunk : state.tier().chunks().values()) {
            check(chunk.ready() != writing.containsKey(chunk.key()), "chunk " + chunk
                    + (chunk.ready() ? " is ready but a store in flight still writes it" : " is not ready, yet no store writes it"));
            check(chunk.pins() == loading.getOrDefault(chunk.key(), 0), "chunk " + chunk + " has " + chunk.pins()
                    + " pins, but " + loading.getOrDefault(chunk.key(), 0) + " loads in flight read it");
        }
        for (String key : writing.keySet()) {
            check(state.tier().holds(key), "a store in flight writes " + key + ", which the tier does not hold");
        }
        for (RequestState request : state.requests().values()) {
            boolean loads = request.jobIds().toJavaStream().map(state::job).anyMatch(j -> j != null && j.isLoad());
            if (!request.isTerminal()) {
                check((request.status() == RequestStatus.LOADING) == loads, "request " + request.requestId()
                        + " is " + request.status() + (loads ? " with" : " without") + " a load in flight");
            }
        }
    }

    /** A request's jobs in flight are one load, or stores only (reference section 6.1). */
    private void checkJobsOfRequests() {
        Map<String, List<Job>> byRequest = state.jobs().values().stream()
                .collect(Collectors.groupingBy(Job::requestId));
        for (Map.Entry<String, List<Job>> entry : byRequest.entrySet()) {
            long loads = entry.getValue().stream().filter(Job::isLoad).count();
            check(loads == 0 || entry.getValue().size() == 1,
                    "request " + entry.getKey() + " has a load and other jobs in flight: " + entry.getValue());
        }
    }

    private void check(boolean condition, String message) {
        if (!condition) {
            throw failure(message, null);
        }
    }

    private AssertionError failure(String message, Throwable cause) {
        StringBuilder text = new StringBuilder(message).append("\nconfig: ").append(config).append("\ncommands:");
        for (int i = 0; i < commands.size(); i++) {
            text.append("\n  ").append(i + 1).append(": ").append(commands.get(i));
        }
        AssertionError error = new AssertionError(text.toString());
        if (cause != null) {
            error.initCause(cause);
        }
        return error;
    }
}
