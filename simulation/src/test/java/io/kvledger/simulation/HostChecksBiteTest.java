package io.kvledger.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.application.finding.Finding;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.FlushRequired;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.group.PerGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The simulator's checks are not vacuous: engines that break a rule (their step results rewritten in
 * this test) make the simulation fail with the seed, the step and the rule's code.
 */
class HostChecksBiteTest {

    private static final SimulationOptions OPTIONS = SimulationOptions.DEFAULTS.withRequests(400).withSeed(5);

    @Test
    void theRealEngineRunsClean() {
        SimulationSummary summary = new Simulator(OPTIONS).run(new Discard());
        assertEquals(400, summary.requests());
        assertTrue(summary.flushes() > 0, "the workload needs flushes for the next tests to mean anything");
    }

    @Test
    void anEngineThatForgetsFlushesMakesTheHostReuseBlocksStillBeingRead() {
        SimulationFailure failure = assertThrows(SimulationFailure.class,
                () -> simulateWith(OPTIONS, event -> event instanceof FlushRequired));
        assertTrue(failure.getMessage().startsWith("seed 5 step "), failure.getMessage());
        // the host's own check: a block handed out while a store it was never told to wait for still reads it
        assertTrue(failure.findings().stream().anyMatch(f -> f.code().name().equals("REUSE_WITHOUT_FLUSH")
                && f.reason().contains("still reads it")), failure.getMessage());
    }

    @Test
    void theHostsChecksAloneStillCatchIt() {
        SimulationFailure failure = assertThrows(SimulationFailure.class, () -> new Simulator(OPTIONS, () -> (seq, event) -> List.of(),
                config -> dropping(Simulator.ledger(config), event -> event instanceof FlushRequired)).checks(Checks.HOST)
                .pipelined(true).run(new Discard()));
        assertTrue(failure.findings().stream().anyMatch(f -> f.code().name().equals("REUSE_WITHOUT_FLUSH")
                && f.reason().contains("still reads it")), failure.getMessage());
    }

    @Test
    void underDelayFreeAnEngineThatForgetsPreemptionFlushesIsCaught() {
        // DELAY_FREE fences nothing: the audit's release rule sees the blocks go while the store reads them,
        // and the host sees them written to while the transfer runs; whichever comes first fails the run.
        SimulationOptions options = OPTIONS.withReleasePolicy(ReleasePolicy.DELAY_FREE);
        SimulationFailure failure = assertThrows(SimulationFailure.class,
                () -> simulateWith(options, event -> event instanceof FlushRequired));
        List<String> codes = failure.findings().stream().map(f -> f.code().name()).distinct().toList();
        assertTrue(codes.contains("RELEASE_WHILE_IN_FLIGHT") || codes.contains("REUSE_WITHOUT_FLUSH")
                || codes.contains("WRITE_DURING_TRANSFER"), failure.getMessage());
    }

    @Test
    void aStoreOfABlockTheRequestDoesNotHoldIsCaughtByTheHost() {
        // A block id from beyond the host's pool, and a block the request holds once named twice.
        assertStoreBeyondAllocated(blocks -> {
            List<Integer> changed = new ArrayList<>(blocks);
            changed.set(changed.size() - 1, 1_000_000);
            return changed;
        }, "names block 1000000, which the host did not give the request");
        assertStoreBeyondAllocated(blocks -> {
            List<Integer> changed = new ArrayList<>(blocks);
            changed.add(blocks.get(0));
            return changed;
        }, "which the host did not give the request");
    }

    private static void assertStoreBeyondAllocated(UnaryOperator<List<Integer>> rewrite, String reason) {
        Function<EngineConfig, KvLedger> engines = config -> new RewrittenLedger(Simulator.ledger(config), entries -> entries,
                result -> new StepResult(result.events().stream().map(event -> event instanceof StoreJobScheduled store
                        && !store.blockIds().flat().isEmpty()
                        ? new StoreJobScheduled(store.jobId(), store.requestId(), store.chunkIndices(), store.keys(),
                                PerGroup.single(rewrite.apply(store.blockIds().flat())))
                        : event).toList(), result.state()));
        SimulationFailure failure = assertThrows(SimulationFailure.class, () -> new Simulator(OPTIONS, () -> (seq, event) -> List.of(),
                engines).checks(Checks.HOST).pipelined(true).run(new Discard()));
        assertTrue(failure.findings().stream().anyMatch(f -> f.code().name().equals("STORE_BEYOND_ALLOCATED")
                && f.reason().contains(reason)), failure.getMessage());
    }

    private static void simulateWith(SimulationOptions options, Predicate<EngineEvent> dropped) {
        new Simulator(options, () -> (seq, event) -> List.of(), config -> dropping(Simulator.ledger(config), dropped))
                .run(new Discard());
    }

    /** The real engine, with some events left out of what the host sees. */
    private static KvLedger dropping(KvLedger real, Predicate<EngineEvent> dropped) {
        return new RewrittenLedger(real, entries -> entries,
                result -> new StepResult(result.events().stream().filter(dropped.negate()).toList(), result.state()));
    }

}
