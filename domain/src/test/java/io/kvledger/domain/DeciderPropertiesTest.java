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
 * Random command sequences over a few requests with small geometry, decided step by step with
 * {@link Decider#decide}; after every command:
 * <ol type="i">
 *   <li>replay equals live: {@code EngineFold.fold(all events so far)} equals the state of the decisions;</li>
 *   <li>a rejected command leaves the state unchanged;</li>
 *   <li>every {@code StoreJobScheduled} has {@code keys.size() == chunkIndices.size()} and
 *       {@code blockIds.size() == F * chunkIndices.size()}, and its chunks lie below
 *       {@code floor(tokenBound/C)} of the request in the state just before it (and come from its table);</li>
 *   <li>the CPU tier never holds more chunks than its capacity;</li>
 *   <li>job ids are unique and ascending (from 0, in scheduling order);</li>
 *   <li>every {@code BlocksReleased} is non-empty (and releases blocks of the request's table);</li>
 *   <li>no exception is ever thrown.</li>
 * </ol>
 * And, from the contract: a command for a terminated request (but its completions) is
 * {@code REQUEST_TERMINATED} ({@code DUPLICATE_REQUEST} for a registration); a request's jobs in flight are
 * one load or stores only; a chunk the tier holds is ready or being written by a store in flight, and its
 * pins count the loads in flight that read it; a live request is LOADING exactly while its load is in flight;
 * {@code FlushRequired} job ids ascend and its block ids do not repeat.
 *
 * <p>The steps are abstract ({@link Step}); the {@link Driver} turns each into a command suited to the
 * current state most of the time (so sequences reach stores, loads, fences and deferrals), and into an
 * arbitrary one otherwise. Shrinking works on the steps, and a failure lists the concrete commands.
 */
class DeciderPropertiesTest {

    /** The abstract operations; the driver turns each into a concrete command from the current state. */
    enum Op {
        REGISTER, MATCH, ALLOCATE, ALLOCATE_LOAD, COMPUTE, REJECT, APPEND, PREEMPT, ABORT, FINISH,
        COMPLETE, COMPLETE_ANY, RESET
    }

    /** One generated step: an operation, a request index and two free parameters. */
    record Step(Op op, int request, int a, int b) {
    }

    @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
    void invariantsHoldForRandomCommandSequences(@ForAll("configs") EngineConfig config,
                                                 @ForAll("programs") List<Step> program) {
        Driver driver = new Driver(config);
        for (Step step : program) {
            driver.run(step);
        }
        driver.finish();
        driver.collectStatistics();
    }

    /**
     * The same property, except that an AbortRequest or FinishRequest of a request that holds no blocks and
     * has no job in flight becomes an AppendTokens. Such a terminal command makes {@code Decider.decide}
     * throw a NullPointerException (found by the property above: RegisterRequest r0 [7]; AbortRequest r0);
     * this keeps the other invariants checked for everything else while that crash stands.
     */
    @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
    void invariantsHoldAwayFromTerminatingAnEmptyRequest(@ForAll("configs") EngineConfig config,
                                                        @ForAll("programs") List<Step> program) {
        Driver driver = new Driver(config);
        driver.avoidTerminatingEmptyRequests = true;
        for (Step step : program) {
            driver.run(step);
        }
        driver.finish();
        driver.collectStatistics();
    }

    @Provide
    Arbitrary<EngineConfig> configs() {
        Arbitrary<Integer> b = Arbitraries.integers().between(1, 4);
        Arbitrary<Integer> f = Arbitraries.integers().between(1, 3);
        Arbitrary<Integer> workers = Arbitraries.integers().between(1, 2);
        Arbitrary<Integer> capacity = Arbitraries.integers().between(0, 6);
        Arbitrary<ReleasePolicy> policy = Arbitraries.of(ReleasePolicy.class);
        Arbitrary<Integer> maxOffload = Arbitraries.integers().between(0, 24).injectNull(0.75);
        Arbitrary<Boolean> promptOnly = Arbitraries.frequency(Tuple.of(4, false), Tuple.of(1, true));
        return Combinators.combine(b, f, workers, capacity, policy, maxOffload, promptOnly).as(EngineConfig::new);
    }

    @Provide
    Arbitrary<List<Step>> programs() {
        Arbitrary<Op> op = Arbitraries.frequency(
                Tuple.of(6, Op.REGISTER), Tuple.of(6, Op.MATCH), Tuple.of(8, Op.ALLOCATE),
                Tuple.of(4, Op.ALLOCATE_LOAD), Tuple.of(12, Op.COMPUTE), Tuple.of(2, Op.REJECT),
                Tuple.of(4, Op.APPEND), Tuple.of(2, Op.PREEMPT), Tuple.of(4, Op.ABORT), Tuple.of(2, Op.FINISH),
                Tuple.of(10, Op.COMPLETE), Tuple.of(1, Op.COMPLETE_ANY), Tuple.of(1, Op.RESET));
        Arbitrary<Integer> request = Arbitraries.frequency(Tuple.of(4, 0), Tuple.of(3, 1), Tuple.of(2, 2), Tuple.of(1, 3));
        Arbitrary<Integer> parameter = Arbitraries.integers().between(0, 31).withDistribution(RandomDistribution.uniform());
        Arbitrary<Step> step = Combinators.combine(op, request, parameter, parameter).as(Step::new);
        return step.list().ofMinSize(1).ofMaxSize(80).withSizeDistribution(RandomDistribution.uniform());
    }

    // --------------------------------------------------------------------------------------------------

    /** Token {@code i} of prompt family {@code family}: families share a prefix whose length grows with the family. */
    static int token(int family, int i) {
        int base = (i * 31 + 7) % 11;
        return i < 3 * family + 2 ? base : base + 13 * family;
    }

    /** Interprets steps against the live state and checks the invariants after every command. */
    static final class Driver {
        private final EngineConfig config;
        private final List<EngineEvent> log = new ArrayList<>();
        private final List<String> commands = new ArrayList<>();
        private final Map<String, Integer> families = new HashMap<>();
        private final Map<String, PrefixMatched> lastMatch = new HashMap<>();
        private final Set<Long> scheduledJobIds = new HashSet<>();
        private final java.util.function.BiFunction<EngineState, EngineCommand, Decision> decide;
        private EngineState state;
        private long lastJobId = -1;
        boolean avoidTerminatingEmptyRequests;
        int storesScheduled;
        int terminatedHolding;

        Driver(EngineConfig config) {
            this(config, Decider::decide);
        }

        /** With another decide function: lets a test check that the checks catch a broken decision. */
        Driver(EngineConfig config, java.util.function.BiFunction<EngineState, EngineCommand, Decision> decide) {
            this.config = config;
            this.decide = decide;
            EngineEvent configured = Decider.configure(config);
            log.add(configured);
            state = EngineFold.fold(log);
        }

        void run(Step step) {
            run(command(step));
        }

        void run(EngineCommand command) {
            commands.add(command.toString());
            EngineState before = state;
            Decision decision;
            try {
                decision = decide.apply(before, command);
            } catch (RuntimeException | StackOverflowError e) {
                throw failure("(vii) decide threw " + e, e);
            }
            List<EngineEvent> events = decision.events(commands.size(), command);
            EngineState at = before;
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
                    lastMatch.put(matched.requestId(), matched);
                }
            }
            if (decision instanceof Decision.Accepted accepted) {
                check(accepted.state().equals(at), "(i) the decision's state is not its events folded onto the state before");
                state = accepted.state();
            } else {
                check(events.size() == 1 && events.get(0) instanceof CommandRejected,
                        "a rejection is recorded as one CommandRejected: " + events);
                check(at.equals(before), "(ii) a rejected command changed the state");
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
                check(load.keys().size() == load.chunkIndices().size(), "load keys and chunks disagree: " + load);
            } else if (event instanceof BlocksReleased released) {
                check(!released.blockIds().isEmpty(), "(vi) an empty BlocksReleased: " + released);
                RequestState request = at.liveRequest(released.requestId());
                check(request != null, "(vi) a release for a request that is not live: " + released);
                List<Integer> table = new ArrayList<>(request.blockTable().asJava());
                for (Integer block : released.blockIds()) {
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
            int n = store.chunkIndices().size();
            check(n > 0, "(iii) an empty store: " + store);
            check(store.keys().size() == n, "(iii) keys.size() != chunkIndices.size(): " + store);
            check(store.blockIds().size() == f * n, "(iii) blockIds.size() != F * chunkIndices.size(): " + store);
            RequestState request = at.liveRequest(store.requestId());
            check(request != null, "(iii) a store of a request that is not live: " + store);
            int bound = StoreBound.tokenBound(config, request) / config.chunkTokens();
            for (int i = 0; i < n; i++) {
                int chunk = store.chunkIndices().get(i);
                check(chunk < bound, "(iii) chunk " + chunk + " is not below floor(tokenBound/C) = " + bound
                        + " (c = " + request.computed() + ", n = " + request.numTokens() + "): " + store);
                check(chunk >= request.cursor(), "(iii) chunk " + chunk + " is below the cursor " + request.cursor());
                check(i == 0 || chunk > store.chunkIndices().get(i - 1), "(iii) chunks ascend: " + store);
                check(chunk < request.keyCount(f), "(iii) chunk " + chunk + " has no key: " + store);
                check(request.key(chunk, f).equals(store.keys().get(i)), "(iii) key of chunk " + chunk + ": " + store);
                for (int j = 0; j < f; j++) {
                    int slot = chunk * f + j;
                    check(slot < request.blockTable().size(), "(iii) chunk " + chunk + " lies past the table "
                            + request.blockTable() + ": " + store);
                    check(request.blockTable().get(slot).equals(store.blockIds().get(i * f + j)),
                            "(iii) source block " + store.blockIds().get(i * f + j) + " is not slot " + slot
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
            Map<String, List<Job>> byRequest = state.jobs().values().toJavaStream()
                    .collect(Collectors.groupingBy(Job::requestId));
            for (Map.Entry<String, List<Job>> entry : byRequest.entrySet()) {
                long loads = entry.getValue().stream().filter(Job::isLoad).count();
                check(loads == 0 || entry.getValue().size() == 1,
                        "request " + entry.getKey() + " has a load and other jobs in flight: " + entry.getValue());
            }
        }

        // ----------------------------------------------------------------------------------------------

        /**
         * What a step becomes: mostly a command suited to the live state (a completion of a job in flight, a
         * ComputeTokens of a running request, ...), so that sequences get deep; when nothing suits, the step
         * falls back along COMPLETE -> COMPUTE -> ALLOCATE -> REGISTER, as a scheduler would. One step in
         * eight addresses the raw id {@code r<request>} instead (unknown, terminated or in the wrong state).
         */
        private Step resolve(Step step) {
            if (step.a() % 8 == 7) {
                return step;
            }
            Op op = step.op();
            if ((op == Op.COMPLETE) && state.jobs().isEmpty()) {
                op = Op.COMPUTE;
            }
            if ((op == Op.COMPUTE || op == Op.REJECT || op == Op.PREEMPT) && nothingSuits(op)) {
                op = Op.ALLOCATE;
            }
            if (op == Op.ALLOCATE && step.b() % 2 == 0 && !nothingSuits(Op.ALLOCATE_LOAD)) {
                op = Op.ALLOCATE_LOAD; // an admission that uses its match
            }
            if (op == Op.ALLOCATE_LOAD && nothingSuits(op)) {
                op = Op.MATCH;
            }
            if (op != Op.REGISTER && op != Op.COMPLETE && op != Op.COMPLETE_ANY && op != Op.RESET && nothingSuits(op)) {
                op = Op.REGISTER;
            }
            return new Step(op, step.request(), step.a(), step.b());
        }

        private boolean nothingSuits(Op op) {
            return state.requests().values().toJavaStream().noneMatch(r -> suits(op, r));
        }

        private String target(Step step) {
            String raw = "r" + step.request();
            if (step.op() == Op.REGISTER) {
                return step.a() % 4 == 0 ? raw : "r" + (4 + state.registered()); // a fresh id, or maybe a known one
            }
            if (step.a() % 8 == 7) {
                return raw;
            }
            List<RequestState> suited = state.requests().values().toJavaStream()
                    .filter(r -> suits(step.op(), r))
                    .sorted(java.util.Comparator.comparingLong(RequestState::ordinal))
                    .toList();
            return suited.isEmpty() ? raw : suited.get(step.request() % suited.size()).requestId();
        }

        private boolean suits(Op op, RequestState r) {
            RequestStatus status = r.status();
            boolean admittable = status == RequestStatus.WAITING || status == RequestStatus.PREEMPTED;
            switch (op) {
                case MATCH:
                    return admittable;
                case ALLOCATE:
                    return admittable || status == RequestStatus.RUNNING;
                case ALLOCATE_LOAD:
                    return admittable && r.pendingMatch() != null && r.pendingMatch().externalTokens() > 0;
                case COMPUTE:
                case REJECT:
                case PREEMPT:
                    return status == RequestStatus.RUNNING;
                case FINISH:
                    return !r.isTerminal() && status != RequestStatus.LOADING;
                default:
                    return !r.isTerminal();
            }
        }

        private EngineCommand command(Step generated) {
            Step step = resolve(generated);
            String id = target(step);
            RequestState request = state.liveRequest(id);
            int n = request == null ? 0 : request.numTokens();
            int c = request == null ? 0 : request.computed();
            int b = config.gpuBlockSize();
            int chunk = config.chunkTokens();
            if (avoidTerminatingEmptyRequests && (step.op() == Op.ABORT || step.op() == Op.FINISH) && request != null
                    && !request.isTerminal() && request.blockTable().isEmpty() && !request.hasJobsInFlight()) {
                return new AppendTokens(id, List.of(token(families.getOrDefault(id, 0), n)));
            }
            Op op = step.op();
            switch (op) {
                case REGISTER: {
                    int family = step.b() % 8 < 5 ? 0 : step.b() % 4;
                    int length = 1 + step.a() % 28;
                    families.putIfAbsent(id, family);
                    List<Integer> prompt = new ArrayList<>(length);
                    for (int i = 0; i < length; i++) {
                        prompt.add(token(family, i));
                    }
                    return new RegisterRequest(id, prompt);
                }
                case MATCH:
                    return new MatchPrefix(id, step.b() % 3 != 0 ? 0 : b * (step.a() % (n / b + 2)));
                case ALLOCATE: {
                    int count = step.a() % 5;
                    if (request != null && step.a() % 4 != 0) {
                        // a scheduler's allocation: slots for every known token, plus a lookahead slot or two
                        count = Math.max(0, (n + b - 1) / b - request.blockTable().size()) + step.b() % 3;
                    }
                    return new AllocateBlocks(id, blocks(step.b(), count), 0);
                }
                case ALLOCATE_LOAD: {
                    PrefixMatched match = lastMatch.get(id);
                    int external = match == null ? step.a() % 3 * chunk : match.externalTokens();
                    int count = step.a() % 5;
                    if (match != null && request != null && step.a() % 4 != 0) {
                        int end = match.hitChunks().isEmpty() ? 0 : match.hitChunks().get(match.hitChunks().size() - 1) + 1;
                        count = Math.max(0, end * config.blocksPerChunk() - request.blockTable().size()) + step.a() % 2;
                    }
                    return new AllocateBlocks(id, blocks(step.b(), count), external);
                }
                case COMPUTE: {
                    // chunked prefill: a slice of the known tokens; sometimes up to n, or past it (draft tokens)
                    int tokens = step.b() % 3 == 0 ? Math.max(1, n - c + step.b() % 4)
                            : Math.max(1, Math.min(n - c, 1 + step.a() % (2 * chunk + 1)));
                    return new ComputeTokens(id, tokens);
                }
                case REJECT:
                    return new RejectTokens(id, 1 + step.a() % 4);
                case APPEND: {
                    int family = families.getOrDefault(id, 0);
                    int count = 1 + step.a() % 4;
                    List<Integer> tokens = new ArrayList<>(count);
                    for (int i = 0; i < count; i++) {
                        tokens.add(step.b() % 5 == 0 ? step.b() + i : token(family, n + i));
                    }
                    return new AppendTokens(id, tokens);
                }
                case PREEMPT:
                    return new PreemptRequest(id);
                case ABORT:
                    return new AbortRequest(id);
                case FINISH:
                    return new FinishRequest(id, step.b() % 2 == 0 ? FinishReason.STOPPED : FinishReason.LENGTH);
                case COMPLETE: {
                    List<Long> inFlight = new ArrayList<>(state.jobs().keySet().toJavaList());
                    long job = inFlight.isEmpty() ? step.a() % (state.nextJobId() + 1) : inFlight.get(step.a() % inFlight.size());
                    return new CompleteTransfer(job, step.b() % 5 != 0);
                }
                case COMPLETE_ANY:
                    return new CompleteTransfer(step.a() % (state.nextJobId() + 2), step.b() % 2 == 0);
                case RESET:
                    return new ResetCache();
                default:
                    throw new IllegalStateException("unknown op " + op);
            }
        }

        /** {@code count} block ids from a pool of 12, so that freed blocks are handed out again. */
        private static List<Integer> blocks(int first, int count) {
            List<Integer> ids = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                ids.add((first + i) % 12);
            }
            return ids;
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
}
