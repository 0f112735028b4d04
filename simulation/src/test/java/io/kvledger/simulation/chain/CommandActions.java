package io.kvledger.simulation.chain;

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
import io.kvledger.domain.command.ResetCache;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.state.RequestState;
import io.kvledger.domain.state.RequestStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.state.Action;
import net.jqwik.api.state.Transformer;

/**
 * The command language as jqwik actions. Each picks, from the model's state, a request for which the
 * command makes sense (a running one to compute, a matched one to load, a job in flight to complete),
 * and now and then any known request, so rejections are exercised too. Prompts come from a few
 * families with shared prefixes, and block ids from a pool of twelve, so hits, loads and fences happen.
 */
final class CommandActions {

    private static final int BLOCK_POOL = 12;

    private CommandActions() {
    }

    static List<Action<LedgerModel>> all() {
        return List.of(register(), match(), allocate(), load(), compute(), reject(), append(), preempt(), abort(),
                finish(), complete(), completeAny(), reset());
    }

    static Action<LedgerModel> register() {
        return (Action.Dependent<LedgerModel>) model -> Combinators.combine(
                        Arbitraries.integers().between(1, 24), Arbitraries.integers().between(0, 3))
                .as((length, family) -> {
                    List<Integer> prompt = new ArrayList<>();
                    for (int i = 0; i < length; i++) {
                        prompt.add(i < 6 * family + 6 ? (i * 31 + 7) % 11 : 100 + family * 13 + i);
                    }
                    String id = model.nextId();
                    return command(new RegisterRequest(id, prompt), m -> { if (!m.requestIds.contains(id)) { m.requestIds.add(id); } });
                });
    }

    static Action<LedgerModel> match() {
        return onRequest(r -> admittable(r), (model, r, k) -> new MatchPrefix(r, model.config.gpuBlockSize()
                * (k % 4 == 0 ? k % (1 + n(model, r) / model.config.gpuBlockSize()) : 0)));
    }

    static Action<LedgerModel> allocate() {
        return onRequest(r -> admittable(r) || r.status() == RequestStatus.RUNNING,
                (model, r, k) -> new AllocateBlocks(r, blocks(k, 1 + k % 4), 0));
    }

    /** An allocation that uses the request's last match, with the blocks its load needs. */
    static Action<LedgerModel> load() {
        return onRequest(r -> admittable(r) && r.pendingMatch() != null && r.pendingMatch().externalTokens() > 0,
                (model, r, k) -> {
                    PrefixMatched match = model.lastMatch.get(r);
                    int external = match == null ? 0 : match.externalTokens();
                    int end = match == null || match.hitChunks().isEmpty() ? 0
                            : match.hitChunks().flat().get(match.hitChunks().flat().size() - 1) + 1;
                    int needed = Math.max(0, end * model.config.blocksPerChunk() - table(model, r)) + k % 2;
                    return new AllocateBlocks(r, blocks(k, needed), external);
                });
    }

    static Action<LedgerModel> compute() {
        return onRequest(r -> r.status() == RequestStatus.RUNNING, (model, r, k) -> {
            RequestState request = model.request(r);
            int missing = request == null ? 1 : request.numTokens() - request.computed();
            int tokens = k % 3 == 0 ? Math.max(1, missing + k % 4) : 1 + k % (2 * model.config.chunkTokens() + 1);
            return new ComputeTokens(r, tokens);
        });
    }

    static Action<LedgerModel> reject() {
        return onRequest(r -> r.status() == RequestStatus.RUNNING, (model, r, k) -> new RejectTokens(r, 1 + k % 4));
    }

    static Action<LedgerModel> append() {
        return onRequest(r -> !r.isTerminal(), (model, r, k) -> {
            List<Integer> tokens = new ArrayList<>();
            for (int i = 0; i <= k % 3; i++) {
                tokens.add(200 + k + i);
            }
            return new AppendTokens(r, tokens);
        });
    }

    static Action<LedgerModel> preempt() {
        return onRequest(r -> r.status() == RequestStatus.RUNNING, (model, r, k) -> new PreemptRequest(r));
    }

    static Action<LedgerModel> abort() {
        return onRequest(r -> !r.isTerminal(), (model, r, k) -> new AbortRequest(r));
    }

    static Action<LedgerModel> finish() {
        return onRequest(r -> !r.isTerminal() && r.status() != RequestStatus.LOADING,
                (model, r, k) -> new FinishRequest(r, k % 2 == 0 ? FinishReason.STOPPED : FinishReason.LENGTH));
    }

    static Action<LedgerModel> complete() {
        return new Action.Dependent<>() {
            @Override
            public boolean precondition(LedgerModel model) {
                return !model.state().jobs().isEmpty();
            }

            @Override
            public Arbitrary<Transformer<LedgerModel>> transformer(LedgerModel model) {
                List<Long> inFlight = model.state().jobs().keyList();
                return Combinators.combine(Arbitraries.of(inFlight), Arbitraries.integers().between(0, 4))
                        .as((job, k) -> command(new CompleteTransfer(job, k != 0), m -> { }));
            }
        };
    }

    static Action<LedgerModel> completeAny() {
        return (Action.Dependent<LedgerModel>) model -> Combinators.combine(
                        Arbitraries.longs().between(0, model.state().nextJobId() + 1), Arbitraries.of(true, false))
                .as((job, success) -> command(new CompleteTransfer(job, success), m -> { }));
    }

    static Action<LedgerModel> reset() {
        return (Action.Independent<LedgerModel>) () -> Arbitraries.just(command(new ResetCache(), m -> { }));
    }

    // ---------------------------------------------------------------- helpers

    @FunctionalInterface
    interface RequestCommandFactory {
        EngineCommand make(LedgerModel model, String requestId, int k);
    }

    /**
     * A command for a request that suits it (most of the time), or for any request the model registered
     * (an unknown, terminated or wrongly placed one gets rejected, which the invariants also cover).
     */
    private static Action<LedgerModel> onRequest(Predicate<RequestState> suits, RequestCommandFactory factory) {
        return new Action.Dependent<>() {
            @Override
            public boolean precondition(LedgerModel model) {
                return !model.requestIds.isEmpty();
            }

            @Override
            public Arbitrary<Transformer<LedgerModel>> transformer(LedgerModel model) {
                List<String> suited = model.requestIds.stream().filter(id -> {
                    RequestState request = model.request(id);
                    return request != null && suits.test(request);
                }).toList();
                Arbitrary<String> ids = suited.isEmpty() ? Arbitraries.of(model.requestIds)
                        : Arbitraries.frequencyOf(
                                net.jqwik.api.Tuple.of(7, Arbitraries.of(suited)), net.jqwik.api.Tuple.of(1, Arbitraries.of(model.requestIds)));
                return Combinators.combine(ids, Arbitraries.integers().between(0, 31))
                        .as((id, k) -> command(factory.make(model, id, k), m -> { }));
            }
        };
    }

    /**
     * Executes a command made from the state at generation, which is the state it runs on (jqwik
     * generates each action from the state the chain has reached); when shrinking replays it on
     * another state, it may be rejected, which the invariants cover as well.
     */
    private static Transformer<LedgerModel> command(EngineCommand command, java.util.function.Consumer<LedgerModel> after) {
        return Transformer.mutate(command.toString(), model -> {
            model.execute(command);
            after.accept(model);
        });
    }

    private static boolean admittable(RequestState r) {
        return r.status() == RequestStatus.WAITING || r.status() == RequestStatus.PREEMPTED;
    }

    private static int n(LedgerModel model, String id) {
        RequestState request = model.request(id);
        return request == null ? 0 : request.numTokens();
    }

    private static int table(LedgerModel model, String id) {
        RequestState request = model.request(id);
        return request == null ? 0 : request.blockTable().size();
    }

    /** {@code count} block ids from the pool, starting at {@code first}, so freed blocks are handed out again. */
    private static List<Integer> blocks(int first, int count) {
        List<Integer> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add((first + i) % BLOCK_POOL);
        }
        return ids;
    }
}
