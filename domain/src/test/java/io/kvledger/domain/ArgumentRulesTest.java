package io.kvledger.domain;

import static io.kvledger.domain.DomainLedger.tokens;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.InvalidCommand;
import io.kvledger.domain.command.MatchPrefix;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.decision.Decider;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.event.TokensComputed;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bad values and states are rejected with the contract's codes and change nothing (section 4, Bad input). */
class ArgumentRulesTest {

    private final DomainLedger ledger = new DomainLedger(EngineConfig.DEFAULTS.withGpuBlockSize(4));

    @Test
    void negativeIdsAndTokensAreInvalidArguments() {
        assertEquals(RejectionCode.INVALID_ARGUMENT, ledger.rejected(new RegisterRequest("r", List.of(1, -2))));
        ledger.run(new RegisterRequest("r", tokens(0, 8)));
        assertEquals(RejectionCode.INVALID_ARGUMENT, ledger.rejected(new AllocateBlocks("r", List.of(3, -1), 0)));
        assertEquals(RejectionCode.INVALID_ARGUMENT, ledger.rejected(new AppendTokens("r", List.of(-5))));
        ledger.run(new AllocateBlocks("r", List.of(0, 1), 0));
        assertEquals(RejectionCode.INVALID_ARGUMENT, ledger.rejected(new ComputeTokens("r", 0)));
        assertEquals(RejectionCode.INVALID_ARGUMENT, ledger.rejected(new ComputeTokens("r", -1)));
        assertEquals(RejectionCode.INVALID_ARGUMENT, ledger.rejected(new RejectTokens("r", 0)));
    }

    @Test
    void oneTokenIsEnoughAndACountMayReachIntegerMaxValueButNotPassIt() {
        ledger.run(new RegisterRequest("r", tokens(0, 8)), new AllocateBlocks("r", List.of(0, 1), 0));
        TokensComputed one = (TokensComputed) ledger.run(new ComputeTokens("r", 1)).get(0);
        assertEquals(1, one.numComputedTokens());
        assertEquals(RejectionCode.INVALID_ARGUMENT, ledger.rejected(new ComputeTokens("r", Integer.MAX_VALUE)));
        TokensComputed max = (TokensComputed) ledger.run(new ComputeTokens("r", Integer.MAX_VALUE - 1)).get(0);
        assertEquals(Integer.MAX_VALUE, max.numComputedTokens());
    }

    @Test
    void rejectTokensWithinItsFloorStillNeedsARunningRequest() {
        // A WAITING request matched at L = n has c = n, so taking back one token respects the floor n - 1.
        ledger.run(new RegisterRequest("r", tokens(0, 8)), new MatchPrefix("r", 8));
        assertEquals(8, ledger.request("r").computed());
        assertEquals(RejectionCode.INVALID_STATE, ledger.rejected(new RejectTokens("r", 1)));
    }

    @Test
    void anUnreadableCommandNamesItsUnknownRequestFirstAndEchoesWhatItWasGiven() {
        InvalidCommand unreadable = new InvalidCommand("AbortRequest", "ghost", "x is bad", "ghost", null);
        Decision decision = Decider.decide(ledger.state, unreadable);
        CommandRejected rejected = (CommandRejected) decision.events(7, unreadable).get(0);
        assertEquals(RejectionCode.UNKNOWN_REQUEST, rejected.code());
        assertEquals("ghost", rejected.requestId());
        assertEquals(7, rejected.line());

        ledger.run(new RegisterRequest("known", List.of(1)));
        InvalidCommand duplicate = new InvalidCommand("RegisterRequest", "known", "promptTokens is bad", "known", null);
        assertEquals(RejectionCode.DUPLICATE_REQUEST, ledger.rejected(duplicate));
        InvalidCommand badField = new InvalidCommand("ComputeTokens", "known", "tokens is bad", "known", null);
        assertEquals(RejectionCode.INVALID_ARGUMENT, ledger.rejected(badField));
        InvalidCommand noId = new InvalidCommand("ComputeTokens", null, "requestId is missing", 12, null);
        assertEquals(RejectionCode.INVALID_ARGUMENT, ledger.rejected(noId));
        InvalidCommand completion = new InvalidCommand("CompleteTransfer", null, "jobId is bad", null, 4);
        CommandRejected job = (CommandRejected) Decider.decide(ledger.state, completion).events(1, completion).get(0);
        assertEquals(RejectionCode.INVALID_ARGUMENT, job.code());
        assertEquals(4L, ((Number) job.jobId()).longValue());
    }
}
