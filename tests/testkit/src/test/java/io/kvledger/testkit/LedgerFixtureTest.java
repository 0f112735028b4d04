package io.kvledger.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.event.RequestAborted;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.state.RequestStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class LedgerFixtureTest {

    private static final EngineConfig B4 = EngineConfig.DEFAULTS.withGpuBlockSize(4);
    private static final List<Integer> PROMPT = List.of(1, 2, 3, 4, 5, 6, 7, 8);

    @Test
    void givenCommandsWhenAStepThenItsEventsByKind() {
        LedgerFixture.with(B4)
                .givenCommands(new RegisterRequest("r", PROMPT), new MatchPrefix("r"), new AllocateBlocks("r", List.of(1, 2)))
                .when(new AbortRequest("r"), new ComputeTokens("r", 4))
                .thenEvents(new RequestAborted("r"), new BlocksReleased("r", List.of(1, 2)),
                        EventMatcher.rejected(2, "ComputeTokens", RejectionCode.REQUEST_TERMINATED, "r"))
                .thenReleases(new BlocksReleased("r", List.of(1, 2)))
                .thenRejections(EventMatcher.rejected(2, "ComputeTokens", RejectionCode.REQUEST_TERMINATED, "r"))
                .thenFlushes()
                .thenJobs()
                .thenState(state -> assertEquals(RequestStatus.ABORTED, state.statusOf("r")));
    }

    @Test
    void givenEventsAreFoldedAsAResumedLedgerFoldsItsStore() {
        Outcome outcome = LedgerFixture.fromHistory(List.of(EngineConfigured.of(B4), new RequestRegistered("r", 8, PROMPT),
                        new PrefixMatched("r", 0, 0, List.of()), new BlocksAllocated("r", List.of(1, 2), 0)))
                .when(new ComputeTokens("r", 4));

        assertEquals(new TokensComputed("r", 4), outcome.events().get(0));
        assertEquals(1, outcome.result().storeJobs().size());
        assertEquals(B4, outcome.state().config());
    }

    @Test
    void aFailedExpectationShowsExpectedAndActualSideBySide() {
        Outcome outcome = LedgerFixture.with(B4)
                .givenCommands(new RegisterRequest("r", PROMPT), new MatchPrefix("r"), new AllocateBlocks("r", List.of(1, 2)))
                .when(new AbortRequest("r"));

        ExpectationFailure failure = assertThrows(ExpectationFailure.class,
                () -> outcome.thenEvents(new RequestAborted("r"), new BlocksReleased("r", List.of(2, 1))));

        String message = failure.getMessage();
        String[] rows = message.split("\n");
        assertTrue(message.startsWith("the step's events differ (2 expected, 2 actual; first difference at #2"), message);
        assertTrue(rows[1].contains("expected") && rows[1].contains("| actual"), message);
        assertTrue(rows[2].matches("\\s+1\\s+RequestAborted\\[requestId=r]\\s+\\| RequestAborted\\[requestId=r]"), rows[2]);
        assertTrue(rows[3].startsWith("  >  2  BlocksReleased[requestId=r, blockIds=[2, 1]]"), rows[3]);
        assertTrue(rows[3].endsWith("| BlocksReleased[requestId=r, blockIds=[1, 2]]"), rows[3]);
        assertTrue(failure.isExpectedDefined() && failure.isActualDefined());
        assertEquals("RequestAborted[requestId=r]\nBlocksReleased[requestId=r, blockIds=[1, 2]]\n", failure.getActual().getStringRepresentation());
    }

    @Test
    void missingAndExtraEventsShowAsDashes() {
        Outcome outcome = LedgerFixture.with(B4).givenCommands(new RegisterRequest("r", PROMPT)).when(new AbortRequest("r"));

        ExpectationFailure extra = assertThrows(ExpectationFailure.class, outcome::thenEvents);
        ExpectationFailure missing = assertThrows(ExpectationFailure.class,
                () -> outcome.thenEvents(new RequestAborted("r"), new BlocksReleased("r", List.of(1))));

        assertTrue(extra.getMessage().contains("  >  1  -"), extra.getMessage());
        assertTrue(extra.getMessage().contains("| RequestAborted[requestId=r]"), extra.getMessage());
        assertTrue(missing.getMessage().contains("BlocksReleased[requestId=r, blockIds=[1]] | -"), missing.getMessage());
    }

    @Test
    void aRejectionMatcherNeedsEveryFieldButTheMessage() {
        Outcome outcome = LedgerFixture.withDefaults().when(new AbortRequest("ghost"));

        outcome.thenRejections(EventMatcher.rejected(1, "AbortRequest", RejectionCode.UNKNOWN_REQUEST, "ghost"));
        assertThrows(ExpectationFailure.class,
                () -> outcome.thenRejections(EventMatcher.rejected(2, "AbortRequest", RejectionCode.UNKNOWN_REQUEST, "ghost")));
        assertThrows(ExpectationFailure.class,
                () -> outcome.thenRejections(EventMatcher.rejected(1, "AbortRequest", RejectionCode.INVALID_STATE, "ghost")));
    }

    @Test
    void theReplayCheckFailsWhenTheLiveStateIsNotTheFoldOfTheEvents() {
        List<io.kvledger.domain.event.EngineEvent> events = List.of(EngineConfigured.of(B4), new RequestRegistered("r", 8, PROMPT));
        io.kvledger.domain.state.EngineState folded = io.kvledger.domain.EngineFold.fold(events);

        LedgerFixture.replayEqualsLive(events, folded);
        AssertionError error = assertThrows(AssertionError.class,
                () -> LedgerFixture.replayEqualsLive(events, io.kvledger.domain.state.EngineState.initial(B4)));
        assertTrue(error.getMessage().startsWith("replay differs from live: folding the 2 given and produced events"), error.getMessage());
    }

    @Test
    void aHistoryStartsWithItsConfigurationAndEventsComeBeforeCommands() {
        assertThrows(IllegalArgumentException.class, () -> LedgerFixture.fromHistory(List.of(new RequestAborted("r"))));
        assertThrows(IllegalArgumentException.class, () -> LedgerFixture.withDefaults().given(EngineConfigured.of(B4)));
        assertThrows(IllegalStateException.class,
                () -> LedgerFixture.withDefaults().givenCommands(new RegisterRequest("r", PROMPT)).given(new RequestAborted("r")));
    }
}
