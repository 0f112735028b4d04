package io.kvledger.simulation.chain;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.infrastructure.scenario.ScenarioWriter;
import io.kvledger.simulation.shrink.Scenario;
import io.kvledger.simulation.shrink.Shrinker;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.state.ActionChain;
import net.jqwik.api.state.ActionChainArbitrary;

/**
 * Stateful properties over the command language (jqwik {@link ActionChain}), through the embedding API,
 * with small geometry so that a few commands reach stores, loads, evictions and fences. After every
 * action ({@link ChainInvariant#ALL}): the log replays to the live state; a rejected command changed
 * nothing; store slices agree in length and lie under the token bound and in the table; job ids ascend
 * from 0; the tier stays within capacity; and no command threw.
 *
 * <p>A failing chain is shrunk (by jqwik, then by the delta-debugging {@link Shrinker} replaying the
 * commands until the same invariant breaks) and written as a scenario file that {@code kvledger run}
 * reproduces ({@link FailedChainScenario}).
 */
class LedgerChainPropertiesTest {

    @Property(tries = 150)
    void invariantsHoldAfterEveryAction(@ForAll("chains") ActionChain<LedgerModel> chain) {
        LedgerModel model = runChecked("invariantsHoldAfterEveryAction", chain, ChainInvariant.ALL);
        // The chains must reach the paths the invariants are about, or passing proves little (each is reached
        // by several percent of the chains, so at least one in 150 is all but certain).
        for (String type : REACHED) {
            boolean reached = model.log.stream().anyMatch(event -> event.getClass().getSimpleName().equals(type));
            Statistics.label(type).collect(reached);
            Statistics.label(type).coverage(coverage -> coverage.check(true).count(c -> c >= 1));
        }
    }

    private static final List<String> REACHED = List.of("StoreJobScheduled", "LoadJobScheduled", "ChunksEvicted",
            "FlushRequired", "CommandRejected", "StoreDeferred", "CacheReset", "TransferAcknowledged");

    /** Runs the chain with the invariants; on a failure, writes the shrunk scenario and names it in the error. */
    static LedgerModel runChecked(String name, ActionChain<LedgerModel> chain, List<ChainInvariant> invariants) {
        for (ChainInvariant invariant : invariants) {
            chain = chain.withInvariant(invariant.label(), invariant::verify);
        }
        try {
            return chain.run();
        } catch (Throwable failure) {
            LedgerModel model = LedgerModel.current();
            if (model == null) {
                throw failure;
            }
            String label = ChainInvariant.labelOf(failure);
            Path file = FailedChainScenario.write(name, shrunk(model, label, invariants));
            throw new AssertionError(failure.getMessage() + "\nshrunk scenario: " + file.toAbsolutePath()
                    + " (kvledger run reproduces it)", failure);
        } finally {
            LedgerModel model = LedgerModel.current();
            if (model != null) {
                model.close();
            }
        }
    }

    private static Scenario shrunk(LedgerModel model, String label, List<ChainInvariant> invariants) {
        try {
            Scenario failing = Scenario.parse(ScenarioWriter.toText(model.config, model.commands));
            return new Shrinker(ChainReplay.breaks(label, invariants)).shrink(failing).scenario();
        } catch (Exception | AssertionError e) {
            throw new IllegalStateException("cannot shrink the failing chain: " + e, e);
        }
    }

    @Provide
    Arbitrary<ActionChain<LedgerModel>> chains() {
        return configs().flatMap(config -> {
            ActionChainArbitrary<LedgerModel> chain = ActionChain.startWith(() -> LedgerModel.open(config));
            int[] weights = {5, 6, 6, 6, 10, 2, 2, 2, 3, 2, 10, 1, 1};
            var actions = CommandActions.all();
            for (int i = 0; i < actions.size(); i++) {
                chain = chain.withAction(weights[i], actions.get(i));
            }
            return chain.withMaxTransformations(60);
        });
    }

    static Arbitrary<EngineConfig> configs() {
        Arbitrary<Integer> b = Arbitraries.integers().between(1, 4);
        Arbitrary<Integer> f = Arbitraries.integers().between(1, 3);
        Arbitrary<Integer> workers = Arbitraries.integers().between(1, 2);
        Arbitrary<Integer> capacity = Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just(0)), Tuple.of(6, Arbitraries.integers().between(1, 4)), Tuple.of(2, Arbitraries.integers().between(5, 12)));
        Arbitrary<ReleasePolicy> policy = Arbitraries.of(ReleasePolicy.class);
        Arbitrary<Integer> maxOffload = Arbitraries.integers().between(0, 24).injectNull(0.75);
        Arbitrary<Boolean> promptOnly = Arbitraries.frequency(Tuple.of(4, false), Tuple.of(1, true));
        return Combinators.combine(b, f, workers, capacity, policy, maxOffload, promptOnly).as(EngineConfig::new);
    }
}
