package io.kvledger.domain.decision;

import static io.kvledger.domain.decision.EngineFixtures.A8;
import static io.kvledger.domain.decision.EngineFixtures.B4;
import static io.kvledger.domain.decision.EngineFixtures.configured;
import static io.kvledger.domain.decision.EngineFixtures.history;
import static io.kvledger.domain.decision.EngineFixtures.keys;
import static io.kvledger.domain.decision.EngineFixtures.registered;
import static io.kvledger.domain.decision.EngineFixtures.rejected;
import static io.kvledger.domain.decision.EngineFixtures.rejectedJob;
import static io.kvledger.domain.decision.EngineFixtures.running;
import static io.kvledger.domain.event.RejectionCode.INVALID_ARGUMENT;

import io.kvledger.application.engine.StepEntry;
import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.InvalidCommand;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.testkit.LedgerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Contract section 4, Bad input: each variant of INVALID_ARGUMENT, with the {@code requestId} or
 * {@code jobId} repeated as given; a rejected command changes no state.
 */
class InvalidArgumentTest {

    /** r: RUNNING with blocks 1, 2 and nothing computed. */
    private static List<EngineEvent> runningR() {
        return history(configured(B4), running("r", A8, 1, 2));
    }

    @Test
    void aMissingRequestIdIsInvalidArgument() {
        LedgerFixture.with(B4)
                .when(new RegisterRequest(null, A8), new ComputeTokens(null, 4))
                .thenEvents(rejected(1, "RegisterRequest", INVALID_ARGUMENT, null),
                        rejected(2, "ComputeTokens", INVALID_ARGUMENT, null));
    }

    @Test
    void aRequestIdThatIsNoStringIsInvalidArgumentAndRepeatedAsGiven() {
        LedgerFixture.with(B4).given(registered("7", A8))
                .when(new InvalidCommand("AbortRequest", null, "requestId must be a string", 7L, null))
                .thenEvents(rejected(1, "AbortRequest", INVALID_ARGUMENT, 7L));
    }

    @Test
    void anEmptyPromptIsInvalidArgument() {
        LedgerFixture.with(B4)
                .when(new RegisterRequest("r", List.of()))
                .thenEvents(rejected(1, "RegisterRequest", INVALID_ARGUMENT, "r"));
    }

    @Test
    void aNegativePromptTokenIsInvalidArgumentAndRegistersNothing() {
        LedgerFixture.with(B4)
                .when(new RegisterRequest("r", List.of(1, -2)), new RegisterRequest("r", List.of(1, 2)))
                .thenEvents(rejected(1, "RegisterRequest", INVALID_ARGUMENT, "r"),
                        registered("r", 1, 2));
    }

    @Test
    void aNegativeBlockIdIsInvalidArgument() {
        LedgerFixture.with(B4).given(registered("r", A8))
                .when(new AllocateBlocks("r", List.of(1, -2)))
                .thenEvents(rejected(1, "AllocateBlocks", INVALID_ARGUMENT, "r"));
    }

    @Test
    void negativeExternalTokensAreInvalidArgument() {
        LedgerFixture.with(B4).given(registered("r", A8))
                .when(new AllocateBlocks("r", List.of(1, 2), -4))
                .thenEvents(rejected(1, "AllocateBlocks", INVALID_ARGUMENT, "r"));
    }

    @Test
    void computeTokensOfZeroOrFewerIsInvalidArgument() {
        LedgerFixture.fromHistory(runningR())
                .when(new ComputeTokens("r", 0), new ComputeTokens("r", -4))
                .thenEvents(rejected(1, "ComputeTokens", INVALID_ARGUMENT, "r"),
                        rejected(2, "ComputeTokens", INVALID_ARGUMENT, "r"));
    }

    @Test
    void rejectTokensOfZeroOrFewerIsInvalidArgument() {
        LedgerFixture.fromHistory(history(runningR(), new TokensComputed("r", 10),
                        new StoreJobScheduled(0, "r", List.of(0, 1), keys(A8, 0, 1), List.of(1, 2))))
                .when(new RejectTokens("r", 0), new RejectTokens("r", -1))
                .thenEvents(rejected(1, "RejectTokens", INVALID_ARGUMENT, "r"),
                        rejected(2, "RejectTokens", INVALID_ARGUMENT, "r"));
    }

    @Test
    void anEmptyOrNegativeAppendIsInvalidArgument() {
        LedgerFixture.fromHistory(runningR())
                .when(new AppendTokens("r", List.of()), new AppendTokens("r", List.of(9, -1)))
                .thenEvents(rejected(1, "AppendTokens", INVALID_ARGUMENT, "r"),
                        rejected(2, "AppendTokens", INVALID_ARGUMENT, "r"));
    }

    @Test
    void aFinishWithoutAKnownReasonIsInvalidArgumentAndDoesNotFinish() {
        LedgerFixture.fromHistory(runningR())
                .when(new FinishRequest("r", null), new ComputeTokens("r", 4))
                .thenEvents(rejected(1, "FinishRequest", INVALID_ARGUMENT, "r"),
                        new TokensComputed("r", 4),
                        new StoreJobScheduled(0, "r", List.of(0), keys(A8, 0), List.of(1)));
    }

    @Test
    void aFieldMissingOrMistypedIsInvalidArgumentAndRepeatsTheRequestId() {
        LedgerFixture.fromHistory(runningR())
                .when(new InvalidCommand("ComputeTokens", "r", "tokens: 4.0 is not an integer", "r", null))
                .thenEvents(rejected(1, "ComputeTokens", INVALID_ARGUMENT, "r"));
    }

    @Test
    void aMistypedJobIdIsInvalidArgumentAndRepeatsItWhenAString() {
        LedgerFixture.with(B4)
                .when(new InvalidCommand("CompleteTransfer", null, "jobId must be an integer", null, "x"))
                .thenEvents(rejectedJob(1, INVALID_ARGUMENT, "x"));
    }

    @Test
    void aRejectedCommandTakesNoJobId() {
        LedgerFixture.fromHistory(runningR())
                .when(new ComputeTokens("r", 0), new ComputeTokens("r", 8))
                .thenEvents(rejected(1, "ComputeTokens", INVALID_ARGUMENT, "r"),
                        new TokensComputed("r", 8),
                        new StoreJobScheduled(0, "r", List.of(0, 1), keys(A8, 0, 1), List.of(1, 2)));
    }

    @Test
    void theLineOfEachRejectionIsTheLineOfItsCommand() {
        LedgerFixture.fromHistory(runningR())
                .whenStep(List.of(new StepEntry(41, new ComputeTokens("r", 0)),
                        new StepEntry(7, new AppendTokens("r", List.of(-5)))))
                .thenEvents(rejected(41, "ComputeTokens", INVALID_ARGUMENT, "r"),
                        rejected(7, "AppendTokens", INVALID_ARGUMENT, "r"));
    }
}
