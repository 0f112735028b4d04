package io.kvledger.domain;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.CompleteTransfer;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.FinishReason;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.config.ReleasePolicy;
import io.kvledger.domain.decision.Decider;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The checks of {@link DeciderPropertiesTest} are not vacuous: a decision that breaks one of the rules
 * (its events rewritten after {@link Decider#decide}) makes the driver fail with that rule's label, while
 * the same commands through the real decider pass.
 */
class DeciderPropertiesCheckTest {

    private static final EngineConfig CONFIG = new EngineConfig(2, 2, 1, 8, ReleasePolicy.FENCE, null, false); // C = 4

    /** r0: 16 prompt tokens, 8 blocks; 6 tokens computed (chunk 0 stored); then finished. */
    private static final List<EngineCommand> COMMANDS = List.of(
            new RegisterRequest("r0", IntStream.range(0, 16).boxed().toList()),
            new MatchPrefix("r0", 0),
            new AllocateBlocks("r0", List.of(0, 1, 2, 3, 4, 5, 6, 7)),
            new ComputeTokens("r0", 6),
            new CompleteTransfer(0, true),
            new FinishRequest("r0", FinishReason.STOPPED));

    @Test
    void theRealDeciderPasses() {
        ProgramDriver driver = new ProgramDriver(CONFIG);
        COMMANDS.forEach(driver::run);
        driver.finish();
    }

    @Test
    void aStorePastTheComputedChunksIsCaught() {
        // chunk 1 (tokens 4..7) added although c = 6: what storing by n instead of c would do
        assertCaught("(iii)", event -> event instanceof StoreJobScheduled store
                ? new StoreJobScheduled(store.jobId(), store.requestId(), List.of(0, 1),
                        List.of(store.keys().flat().get(0), "extra"), List.of(0, 1, 2, 3))
                : event);
    }

    @Test
    void aStoreWhoseBlocksDisagreeWithItsChunksIsCaught() {
        assertCaught("(iii)", event -> event instanceof StoreJobScheduled store
                ? new StoreJobScheduled(store.jobId(), store.requestId(), store.chunkIndices().flat(), store.keys().flat(), List.of(0))
                : event);
    }

    @Test
    void aSkippedJobIdIsCaught() {
        assertCaught("(v)", event -> event instanceof StoreJobScheduled store
                ? new StoreJobScheduled(store.jobId() + 1, store.requestId(), store.chunkIndices(), store.keys(),
                        store.blockIds())
                : event);
    }

    @Test
    void anEmptyReleaseIsCaught() {
        assertCaught("(vi)", event -> event instanceof BlocksReleased released
                ? new BlocksReleased(released.requestId(), List.of())
                : event);
    }

    @Test
    void aDecisionThatIsNotAFunctionOfItsInputsIsCaught() {
        int[] calls = {0};
        BiFunction<EngineState, EngineCommand, Decision> broken = (state, command) -> {
            Decision decision = Decider.decide(state, command);
            if (decision instanceof Decision.Accepted accepted && command instanceof ComputeTokens && calls[0]++ % 2 == 1) {
                return new Decision.Accepted(accepted.events().subList(0, 0)); // a second call forgets its events
            }
            return decision;
        };
        AssertionError error = assertThrows(AssertionError.class, () -> runWith(broken));
        assertTrue(error.getMessage().startsWith("(i)"), error.getMessage());
    }

    private static void assertCaught(String label, UnaryOperator<EngineEvent> rewrite) {
        BiFunction<EngineState, EngineCommand, Decision> broken = (state, command) -> {
            Decision decision = Decider.decide(state, command);
            if (!(decision instanceof Decision.Accepted accepted)) {
                return decision;
            }
            List<EngineEvent> events = new ArrayList<>();
            for (EngineEvent event : accepted.events()) {
                events.add(rewrite.apply(event));
            }
            return new Decision.Accepted(events);
        };
        AssertionError error = assertThrows(AssertionError.class, () -> runWith(broken));
        assertTrue(error.getMessage().startsWith(label), error.getMessage());
    }

    private static void runWith(BiFunction<EngineState, EngineCommand, Decision> decide) {
        ProgramDriver driver = new ProgramDriver(CONFIG, decide);
        COMMANDS.forEach(driver::run);
        driver.finish();
    }
}
