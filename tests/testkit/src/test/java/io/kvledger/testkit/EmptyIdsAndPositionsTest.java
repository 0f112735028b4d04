package io.kvledger.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.application.KvLedger;
import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.InvalidCommand;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.event.RequestRegistered;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 31: an empty request id names no request (INVALID_ARGUMENT, before any lookup, as a bad requestId
 * comes first in contract section 4's order); a rejection through {@code KvLedger.step} names the command's
 * position in the step; an {@link Outcome} prints its events and rejections.
 */
class EmptyIdsAndPositionsTest {

    private static final EngineConfig B4 = EngineConfig.DEFAULTS.withGpuBlockSize(4);
    private static final List<Integer> PROMPT = List.of(1, 2, 3, 4, 5, 6, 7, 8);

    @Test
    void anEmptyRequestIdIsInvalidArgumentAndRegistersNothing() {
        LedgerFixture.with(B4)
                .when(new RegisterRequest("", PROMPT), new MatchPrefix(""), new ComputeTokens("", 4), new AbortRequest(""))
                .thenEvents(EventMatcher.rejected(1, "RegisterRequest", RejectionCode.INVALID_ARGUMENT, ""),
                        EventMatcher.rejected(2, "MatchPrefix", RejectionCode.INVALID_ARGUMENT, ""),
                        EventMatcher.rejected(3, "ComputeTokens", RejectionCode.INVALID_ARGUMENT, ""),
                        EventMatcher.rejected(4, "AbortRequest", RejectionCode.INVALID_ARGUMENT, ""))
                .thenState(state -> assertTrue(state.statusOf("") == null, "no request \"\" is known"));
    }

    @Test
    void anEmptyRequestIdIsNamedAsTheProblemBeforeABadFieldOrAnUnknownRequest() {
        Outcome outcome = LedgerFixture.with(B4)
                .when(new InvalidCommand("ComputeTokens", "", "tokens must be an integer, was \"x\"", "", null));

        CommandRejected rejected = outcome.result().rejections().get(0);
        assertEquals(RejectionCode.INVALID_ARGUMENT, rejected.code());
        assertEquals("requestId must not be empty", rejected.message());
    }

    @Test
    void aRejectionThroughStepNamesTheCommandsPositionInTheStep() {
        try (KvLedger ledger = KvLedger.builder().config(B4).build()) {
            List<CommandRejected> rejections = ledger.step(List.of(new RegisterRequest("r", PROMPT),
                    new AllocateBlocks("nobody", List.of(1)), new RegisterRequest("r", PROMPT))).rejections();
            List<CommandRejected> async = ledger.stepAsync(List.of(new AbortRequest("ghost"))).join().rejections();

            assertEquals(List.of(2L, 3L), rejections.stream().map(CommandRejected::line).toList());
            assertEquals(1L, async.get(0).line());
        }
    }

    @Test
    void anOutcomePrintsItsEventsAndItsRejections() {
        Outcome outcome = LedgerFixture.with(B4).when(new RegisterRequest("r", PROMPT), new AbortRequest("ghost"));

        String text = outcome.toString();

        assertTrue(text.startsWith("Outcome of a step with 2 events:\n  " + new RequestRegistered("r", 8, PROMPT) + "\n  CommandRejected["),
                text);
        assertTrue(text.endsWith("\n1 rejection:\n  line 2 AbortRequest UNKNOWN_REQUEST: request ghost is not registered"), text);
        AssertionError failed = assertThrows(AssertionError.class, () -> assertEquals("nothing", outcome));
        assertTrue(failed.getMessage().contains("RequestRegistered[requestId=r"), failed.getMessage());
    }
}
