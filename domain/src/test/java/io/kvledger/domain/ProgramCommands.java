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
 * Turns generated steps into concrete commands for the current state, so that random programs reach
 * stores, loads, fences and deferrals rather than mostly rejections.
 */
final class ProgramCommands {

    /** The abstract operations; the driver turns each into a concrete command from the current state. */
    enum Op {
        REGISTER, MATCH, ALLOCATE, ALLOCATE_LOAD, COMPUTE, REJECT, APPEND, PREEMPT, ABORT, FINISH,
        COMPLETE, COMPLETE_ANY, RESET
    }

    /** One generated step: an operation, a request index and two free parameters. */
    record Step(Op op, int request, int a, int b) {
    }

    /** Token {@code i} of prompt family {@code family}: families share a prefix whose length grows with the family. */
    static int token(int family, int i) {
        int base = (i * 31 + 7) % 11;
        return i < 3 * family + 2 ? base : base + 13 * family;
    }

    private final EngineConfig config;
    private final Map<String, Integer> families = new HashMap<>();
    private final Map<String, PrefixMatched> lastMatch = new HashMap<>();
    private EngineState state;

    ProgramCommands(EngineConfig config) {
        this.config = config;
    }

    /** The command a step becomes in {@code current}. */
    EngineCommand command(EngineState current, Step step) {
        this.state = current;
        return command(step);
    }

    /** Remembers a request's latest match, whose externalTokens a load must repeat. */
    void matched(PrefixMatched matched) {
        lastMatch.put(matched.requestId(), matched);
    }


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
        return state.requests().values().stream().noneMatch(r -> suits(op, r));
    }

    private String target(Step step) {
        String raw = "r" + step.request();
        if (step.op() == Op.REGISTER) {
            return step.a() % 4 == 0 ? raw : "r" + (4 + state.registered()); // a fresh id, or maybe a known one
        }
        if (step.a() % 8 == 7) {
            return raw;
        }
        List<RequestState> suited = state.requests().values().stream()
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
        RequestState request = state.heldRequest(id);
        int n = request == null ? 0 : request.numTokens();
        int c = request == null ? 0 : request.computed();
        int b = config.gpuBlockSize();
        int chunk = config.chunkTokens();
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
                    int end = match.hitChunks().isEmpty() ? 0 : match.hitChunks().flat().get(match.hitChunks().flat().size() - 1) + 1;
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
                List<Long> inFlight = new ArrayList<>(state.jobs().keyList());
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

}
