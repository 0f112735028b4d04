package io.kvledger.simulation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.command.FreeWindowBlocks;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.WindowBlocksFreed;
import io.kvledger.domain.group.PerGroup;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The grouped models (contract section 7) run as vLLM's KV cache manager would drive them: every seed of
 * the bar ends with every request settled and bounded events, sliding positions are null at allocation
 * and freed while requests run, and a host that does not report its frees is caught. The audit's rules judge
 * every step of these runs as they do for one group.
 */
class GroupedSimulationTest {

    /** Events per request, on average over a run; the grouped models make 40 to 110. */
    private static final double EVENTS_PER_REQUEST = 200;

    @Test
    void everyGroupedModelEndsOnEverySeedOfTheBar() {
        for (String name : List.of("gpt-oss", "eagle", "mixed-blocks")) {
            SimulationModel model = SimulationModel.named(name);
            long freed = 0;
            for (long seed = 1; seed <= 12; seed++) {
                int requests = seed % 2 == 0 ? 200 : 500;
                int tokens = seed % 3 == 0 ? 256 : model.requestTokens();
                SimulationSummary summary = assertBoundedRun(options(model, seed, requests).withRequestTokens(tokens));
                freed += summary.windowBlocksFreed;
            }
            assertEquals(model.hasSlidingGroup(), freed > 0, name + " frees window blocks exactly when it has a sliding group");
        }
    }

    @Test
    void theGemma3MixEndsWithItsWindowOf1024Sliding() {
        long freed = 0;
        for (long seed = 1; seed <= 2; seed++) {
            freed += assertBoundedRun(options(SimulationModel.named("gemma3"), seed, 100)).windowBlocksFreed;
        }
        assertTrue(freed > 0, "requests of 2048 tokens outgrow the window of 1024");
    }

    @Test
    void theLogEchoesTheModelsGroupsAndHasNullEntriesAndFrees() {
        SimulationModel model = SimulationModel.named("gpt-oss");
        List<EngineEvent> log = new Simulator(options(model, 3, 250)).events();
        assertEquals(model.groups(), ((EngineConfigured) log.get(0)).config().groups());
        assertTrue(log.stream().anyMatch(e -> e instanceof BlocksAllocated a && a.blockIds().group(1).stream().anyMatch(Objects::isNull)),
                "a load or GPU hit past the window allocates the null block below it");
        assertTrue(log.stream().anyMatch(e -> e instanceof BlocksAllocated a && a.blockIds().group(0).stream()
                .allMatch(Objects::nonNull)), "the full group never gets a null block");
        assertTrue(log.stream().anyMatch(e -> e instanceof WindowBlocksFreed), "running requests free what the window left");
        assertEquals(log, new Simulator(options(model, 3, 250)).events(), "a seed gives the same log");
    }

    @Test
    void aHostThatDoesNotReportItsFreesIsCaught() {
        // The engine never hears of the frees: it still counts the freed blocks as held by their sliding tables,
        // so the host's reuse of them is rejected (BLOCK_STILL_HELD as INVALID_ARGUMENT), or the tables differ.
        SimulationOptions options = options(SimulationModel.named("gpt-oss"), 3, 400);
        SimulationFailure failure = assertThrows(SimulationFailure.class, () -> new Simulator(options,
                () -> (seq, event) -> List.of(), config -> withoutFrees(Simulator.ledger(config))).run(new Discard()));
        List<String> codes = failure.findings().stream().map(f -> f.code().name()).distinct().toList();
        assertTrue(codes.contains("UNEXPECTED_REJECTION") || codes.contains("HOST_DESYNC"), failure.getMessage());
    }

    @Test
    void theAuditsRulesJudgeGroupedRunsAndCatchWhatNeitherTheHostNorTheFoldSees() {
        // Releases listed in reverse table order: the host frees the same blocks and the log folds to the same
        // state, so only the audit's derivation (RELEASE_MISMATCH) can tell; a run that skipped it would pass.
        for (String name : List.of("gpt-oss", "eagle", "mixed-blocks")) {
            for (long seed = 1; seed <= 3; seed++) {
                SimulationOptions options = options(SimulationModel.named(name), seed, seed == 2 ? 300 : 120);
                SimulationFailure failure = assertThrows(SimulationFailure.class, () -> new Simulator(options,
                        () -> (seq, event) -> List.of(), config -> releasingInReverse(Simulator.ledger(config))).run(new Discard()),
                        name + " seed " + seed);
                assertTrue(failure.findings().stream().anyMatch(f -> f.code().name().equals("RELEASE_MISMATCH")),
                        name + " seed " + seed + ": " + failure.getMessage());
            }
        }
    }

    @Test
    void theSummaryOfAGroupedRunSaysTheAuditsRulesRan() {
        String text = new Simulator(options(SimulationModel.named("gpt-oss"), 4, 100)).run(new Discard()).text(4);
        assertTrue(text.contains("violations 0\n"), text);
    }

    @Test
    void anUnknownModelIsRefusedNamingTheKnownOnes() {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> SimulationModel.named("llama"));
        assertEquals("unknown model 'llama'; known: default, gemma3, gpt-oss, eagle, mixed-blocks", refused.getMessage());
    }

    static SimulationOptions options(SimulationModel model, long seed, int requests) {
        return SimulationOptions.DEFAULTS.withModel(model).withRequestTokens(model.requestTokens()).withSeed(seed)
                .withRequests(requests);
    }

    private static SimulationSummary assertBoundedRun(SimulationOptions options) {
        SimulationSummary summary = new Simulator(options).run(new Discard());
        String run = options.model().name() + " seed " + options.seed() + ", " + options.requests() + " requests of "
                + options.requestTokens() + " tokens: " + summary.text(options.seed());
        assertEquals(options.requests(), summary.requests(), run);
        assertEquals(options.requests(), summary.finished() + summary.aborted(), run);
        assertTrue(summary.events() <= EVENTS_PER_REQUEST * Math.max(1, options.requests()) + 100, run);
        return summary;
    }

    /** The real engine, its releases of several blocks in a group listed last block first. */
    private static KvLedger releasingInReverse(KvLedger real) {
        return new RewrittenLedger(real, entries -> entries, result -> new StepResult(result.events().stream()
                .map(event -> event instanceof BlocksReleased released ? reversed(released) : event).toList(), result.state()));
    }

    private static BlocksReleased reversed(BlocksReleased released) {
        List<List<Integer>> lists = new ArrayList<>();
        for (List<Integer> group : released.blockIds().lists()) {
            List<Integer> copy = new ArrayList<>(group);
            Collections.reverse(copy);
            lists.add(copy);
        }
        return new BlocksReleased(released.requestId(), PerGroup.of(lists));
    }

    /** The real engine, never given a FreeWindowBlocks. */
    private static KvLedger withoutFrees(KvLedger real) {
        return new RewrittenLedger(real, entries -> entries.stream()
                .filter(entry -> !(entry.command() instanceof FreeWindowBlocks)).toList(), result -> result);
    }
}
