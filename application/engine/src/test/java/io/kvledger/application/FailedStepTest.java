package io.kvledger.application;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.engine.StepResult;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.command.InvalidCommand;
import io.kvledger.domain.command.RegisterRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A step that fails midway changes nothing: the state the ledger shows and the next step is decided on are the
 * ones before the failed step (Axon drops the cached aggregate when the unit of work rolls back, and the ledger
 * loads it again from the store's events). The state is to change in place (issue 32), so nothing but a fresh load
 * undoes the failed step's first commands; a store that keeps nothing cannot, and the ledger says so.
 */
class FailedStepTest {

    /** An id the line limit cannot measure: the step throws at the command echoing it, after folding those before it. */
    record Unreadable(String id) {
        @Override
        public String id() {
            throw new IllegalStateException("unreadable");
        }
    }

    private static final List<EngineCommand> FIRST = List.of(new RegisterRequest("r1", List.of(1, 2, 3, 4)),
            new AllocateBlocks("r1", List.of(0), 0));
    private static final List<EngineCommand> FAILING = List.of(new RegisterRequest("r2", List.of(5, 6, 7, 8)),
            new AllocateBlocks("r2", List.of(1), 0),
            new InvalidCommand("AppendTokens", "r1", "tokens is not a list", new Unreadable("r1"), null));
    private static final List<EngineCommand> NEXT = List.of(new RegisterRequest("r2", List.of(5, 6, 7, 8)),
            new AllocateBlocks("r2", List.of(1), 0));

    @Test
    void aStepWhoseThirdCommandThrowsLeavesTheStateAsBeforeItAndTheNextStepWorks() {
        String afterFirst;
        StepResult expectedNext;
        String expectedState;
        try (KvLedger reference = KvLedger.builder().store(LedgerStore.inMemory()).build()) {
            afterFirst = reference.step(FIRST).state().toString();
            expectedNext = reference.step(NEXT);
            expectedState = reference.state().toString();
        }
        try (KvLedger ledger = KvLedger.builder().store(LedgerStore.inMemory()).build()) {
            ledger.step(FIRST);

            IllegalStateException failure = assertThrows(IllegalStateException.class, () -> ledger.step(FAILING));

            assertTrue(failure.getMessage().contains("Unreadable"), "the third command's id failed the step: " + failure);
            assertEquals(afterFirst, ledger.state().toString(), "the failed step changed nothing");
            StepResult next = ledger.step(NEXT);
            assertEquals(expectedNext.events(), next.events(), "r2 is new again: the failed step's commands were undone");
            assertEquals(expectedState, ledger.state().toString());
        }
    }

    /** A store that keeps nothing has nothing to load the engine again from: the ledger says so, at once and after. */
    @Test
    void aStoreThatKeepsNothingCannotUndoAFailedStepAndTheLedgerSaysSo() {
        try (KvLedger ledger = KvLedger.builder().store(LedgerStore.discarding()).build()) {
            ledger.step(FIRST);

            IllegalStateException failure = assertThrows(IllegalStateException.class, () -> ledger.step(FAILING));

            assertEquals(1, failure.getSuppressed().length, "the failed reload is told with the failure");
            IllegalStateException state = assertThrows(IllegalStateException.class, ledger::state);
            assertTrue(state.getMessage().contains("could not be loaded again"), state.getMessage());
            IllegalStateException next = assertThrows(IllegalStateException.class, () -> ledger.step(NEXT));
            assertTrue(next.getMessage().contains("build a new ledger"), next.getMessage());
        }
    }
}
