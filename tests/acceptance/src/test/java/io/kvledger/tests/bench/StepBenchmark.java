package io.kvledger.tests.bench;

import io.kvledger.application.KvLedger;
import io.kvledger.application.LedgerStore;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.decision.Decider;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.EngineFold;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost to a host of one scheduler step of {@code requests} decoding requests (target: under
 * 0.5 ms for 256). {@code facade} is what an embedding host pays: one Axon command and one unit of
 * work per step. {@code domainOnly} decides the same step without Axon, to show the framework's share.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 10, time = 2)
@Measurement(iterations = 10, time = 2)
@Fork(value = 1, jvmArgs = {"-Xms2g", "-Xmx2g", "-XX:+AlwaysPreTouch",
        "-Ddisable-axoniq-console-message=true", "-Daxoniq.update-checker.disabled=true",
        "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn"})
public class StepBenchmark {

    @State(Scope.Thread)
    public static class ThroughFacade {
        @Param({"256"})
        int requests;
        KvLedger ledger;
        DecodeWorkload workload;

        @Setup(Level.Trial)
        public void start() {
            ledger = KvLedger.builder().config(EngineConfig.DEFAULTS).store(LedgerStore.discarding()).build();
            workload = new DecodeWorkload(requests);
            workload.observe(ledger.step(workload.warmUp()).events());
        }

        @TearDown(Level.Trial)
        public void stop() {
            ledger.close();
        }
    }

    @State(Scope.Thread)
    public static class DomainOnly {
        @Param({"256"})
        int requests;
        EngineState state;
        DecodeWorkload workload;

        @Setup(Level.Trial)
        public void start() {
            state = EngineFold.evolve(null, Decider.configure(EngineConfig.DEFAULTS));
            workload = new DecodeWorkload(requests);
            workload.observe(decideAll(this, workload.warmUp()));
        }
    }

    @Benchmark
    public List<EngineEvent> facade(ThroughFacade s) {
        List<EngineEvent> events = s.ledger.step(s.workload.nextStep()).events();
        s.workload.observe(events);
        return events;
    }

    @Benchmark
    public List<EngineEvent> domainOnly(DomainOnly s) {
        List<EngineEvent> events = decideAll(s, s.workload.nextStep());
        s.workload.observe(events);
        return events;
    }

    private static List<EngineEvent> decideAll(DomainOnly s, List<EngineCommand> step) {
        List<EngineEvent> events = new ArrayList<>();
        for (EngineCommand command : step) {
            Decision decision = Decider.decide(s.state, command);
            if (decision instanceof Decision.Accepted accepted) {
                for (EngineEvent event : accepted.events()) {
                    s.state = io.kvledger.domain.EngineFold.evolve(s.state, event);
                }
                events.addAll(accepted.events());
            } else {
                throw new IllegalStateException("the workload must be valid: " + command + " -> " + decision);
            }
        }
        return events;
    }
}
