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
 * <p>The steps are abstract ({@link ProgramCommands.Step}); the {@link ProgramDriver} turns each into a command suited to the
 * current state most of the time (so sequences reach stores, loads, fences and deferrals), and into an
 * arbitrary one otherwise. Shrinking works on the steps, and a failure lists the concrete commands.
 */
class DeciderPropertiesTest {



    @Property(tries = 1000, edgeCases = EdgeCasesMode.NONE)
    void invariantsHoldForRandomCommandSequences(@ForAll("configs") EngineConfig config,
                                                 @ForAll("programs") List<ProgramCommands.Step> program) {
        ProgramDriver driver = new ProgramDriver(config);
        for (ProgramCommands.Step step : program) {
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
    Arbitrary<List<ProgramCommands.Step>> programs() {
        Arbitrary<ProgramCommands.Op> op = Arbitraries.frequency(
                Tuple.of(6, ProgramCommands.Op.REGISTER), Tuple.of(6, ProgramCommands.Op.MATCH), Tuple.of(8, ProgramCommands.Op.ALLOCATE),
                Tuple.of(4, ProgramCommands.Op.ALLOCATE_LOAD), Tuple.of(12, ProgramCommands.Op.COMPUTE), Tuple.of(2, ProgramCommands.Op.REJECT),
                Tuple.of(4, ProgramCommands.Op.APPEND), Tuple.of(2, ProgramCommands.Op.PREEMPT), Tuple.of(4, ProgramCommands.Op.ABORT), Tuple.of(2, ProgramCommands.Op.FINISH),
                Tuple.of(10, ProgramCommands.Op.COMPLETE), Tuple.of(1, ProgramCommands.Op.COMPLETE_ANY), Tuple.of(1, ProgramCommands.Op.RESET));
        Arbitrary<Integer> request = Arbitraries.frequency(Tuple.of(4, 0), Tuple.of(3, 1), Tuple.of(2, 2), Tuple.of(1, 3));
        Arbitrary<Integer> parameter = Arbitraries.integers().between(0, 31).withDistribution(RandomDistribution.uniform());
        Arbitrary<ProgramCommands.Step> step = Combinators.combine(op, request, parameter, parameter).as(ProgramCommands.Step::new);
        return step.list().ofMinSize(1).ofMaxSize(80).withSizeDistribution(RandomDistribution.uniform());
    }
}
