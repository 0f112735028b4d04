package io.kvledger.application.engine;

import static io.kvledger.application.engine.EngineFixtures.A8;
import static io.kvledger.application.engine.EngineFixtures.B4;
import static io.kvledger.application.engine.EngineFixtures.configured;
import static io.kvledger.application.engine.EngineFixtures.exactly;
import static io.kvledger.application.engine.EngineFixtures.history;
import static io.kvledger.application.engine.EngineFixtures.keys;
import static io.kvledger.application.engine.EngineFixtures.newFixture;
import static io.kvledger.application.engine.EngineFixtures.registered;
import static io.kvledger.application.engine.EngineFixtures.rejected;
import static io.kvledger.application.engine.EngineFixtures.rejectedJob;
import static io.kvledger.application.engine.EngineFixtures.running;
import static io.kvledger.application.engine.EngineFixtures.step;
import static io.kvledger.domain.event.RejectionCode.INVALID_ARGUMENT;

import io.kvledger.domain.command.AllocateBlocks;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.ComputeTokens;
import io.kvledger.domain.command.FinishRequest;
import io.kvledger.domain.command.InvalidCommand;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.command.RejectTokens;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensComputed;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Contract section 4, Bad input: each variant of INVALID_ARGUMENT, with the {@code requestId} or
 * {@code jobId} repeated as given; a rejected command changes no state.
 */
class InvalidArgumentTest {

    private RuleFixture fixture;

    @BeforeEach
    void setUp() {
        fixture = newFixture();
    }

    /** r: RUNNING with blocks 1, 2 and nothing computed. */
    private static List<Object> runningR() {
        return history(configured(B4), running("r", A8, 1, 2));
    }

    @Test
    void aMissingRequestIdIsInvalidArgument() {
        fixture.given(configured(B4))
                .when(step(new RegisterRequest(null, A8), new ComputeTokens(null, 4)))
                .expectEventsMatching(exactly(rejected(1, "RegisterRequest", INVALID_ARGUMENT, null),
                        rejected(2, "ComputeTokens", INVALID_ARGUMENT, null)));
    }

    @Test
    void aRequestIdThatIsNoStringIsInvalidArgumentAndRepeatedAsGiven() {
        fixture.given(configured(B4), registered("7", A8))
                .when(step(new InvalidCommand("AbortRequest", null, "requestId must be a string", 7L, null)))
                .expectEventsMatching(exactly(rejected(1, "AbortRequest", INVALID_ARGUMENT, 7L)));
    }

    @Test
    void anEmptyPromptIsInvalidArgument() {
        fixture.given(configured(B4))
                .when(step(new RegisterRequest("r", List.of())))
                .expectEventsMatching(exactly(rejected(1, "RegisterRequest", INVALID_ARGUMENT, "r")));
    }

    @Test
    void aNegativePromptTokenIsInvalidArgumentAndRegistersNothing() {
        fixture.given(configured(B4))
                .when(step(new RegisterRequest("r", List.of(1, -2)), new RegisterRequest("r", List.of(1, 2))))
                .expectEventsMatching(exactly(rejected(1, "RegisterRequest", INVALID_ARGUMENT, "r"),
                        registered("r", 1, 2)));
    }

    @Test
    void aNegativeBlockIdIsInvalidArgument() {
        fixture.given(configured(B4), registered("r", A8))
                .when(step(new AllocateBlocks("r", List.of(1, -2))))
                .expectEventsMatching(exactly(rejected(1, "AllocateBlocks", INVALID_ARGUMENT, "r")));
    }

    @Test
    void negativeExternalTokensAreInvalidArgument() {
        fixture.given(configured(B4), registered("r", A8))
                .when(step(new AllocateBlocks("r", List.of(1, 2), -4)))
                .expectEventsMatching(exactly(rejected(1, "AllocateBlocks", INVALID_ARGUMENT, "r")));
    }

    @Test
    void computeTokensOfZeroOrFewerIsInvalidArgument() {
        fixture.given(runningR())
                .when(step(new ComputeTokens("r", 0), new ComputeTokens("r", -4)))
                .expectEventsMatching(exactly(rejected(1, "ComputeTokens", INVALID_ARGUMENT, "r"),
                        rejected(2, "ComputeTokens", INVALID_ARGUMENT, "r")));
    }

    @Test
    void rejectTokensOfZeroOrFewerIsInvalidArgument() {
        fixture.given(history(runningR(), new TokensComputed("r", 10),
                        new StoreJobScheduled(0, "r", List.of(0, 1), keys(A8, 0, 1), List.of(1, 2))))
                .when(step(new RejectTokens("r", 0), new RejectTokens("r", -1)))
                .expectEventsMatching(exactly(rejected(1, "RejectTokens", INVALID_ARGUMENT, "r"),
                        rejected(2, "RejectTokens", INVALID_ARGUMENT, "r")));
    }

    @Test
    void anEmptyOrNegativeAppendIsInvalidArgument() {
        fixture.given(runningR())
                .when(step(new AppendTokens("r", List.of()), new AppendTokens("r", List.of(9, -1))))
                .expectEventsMatching(exactly(rejected(1, "AppendTokens", INVALID_ARGUMENT, "r"),
                        rejected(2, "AppendTokens", INVALID_ARGUMENT, "r")));
    }

    @Test
    void aFinishWithoutAKnownReasonIsInvalidArgumentAndDoesNotFinish() {
        fixture.given(runningR())
                .when(step(new FinishRequest("r", null), new ComputeTokens("r", 4)))
                .expectEventsMatching(exactly(rejected(1, "FinishRequest", INVALID_ARGUMENT, "r"),
                        new TokensComputed("r", 4),
                        new StoreJobScheduled(0, "r", List.of(0), keys(A8, 0), List.of(1))));
    }

    @Test
    void aFieldMissingOrMistypedIsInvalidArgumentAndRepeatsTheRequestId() {
        fixture.given(runningR())
                .when(step(new InvalidCommand("ComputeTokens", "r", "tokens: 4.0 is not an integer", "r", null)))
                .expectEventsMatching(exactly(rejected(1, "ComputeTokens", INVALID_ARGUMENT, "r")));
    }

    @Test
    void aMistypedJobIdIsInvalidArgumentAndRepeatsItWhenAString() {
        fixture.given(configured(B4))
                .when(step(new InvalidCommand("CompleteTransfer", null, "jobId must be an integer", null, "x")))
                .expectEventsMatching(exactly(rejectedJob(1, INVALID_ARGUMENT, "x")));
    }

    @Test
    void aRejectedCommandTakesNoJobId() {
        fixture.given(runningR())
                .when(step(new ComputeTokens("r", 0), new ComputeTokens("r", 8)))
                .expectEventsMatching(exactly(rejected(1, "ComputeTokens", INVALID_ARGUMENT, "r"),
                        new TokensComputed("r", 8),
                        new StoreJobScheduled(0, "r", List.of(0, 1), keys(A8, 0, 1), List.of(1, 2))));
    }

    @Test
    void theLineOfEachRejectionIsTheLineOfItsCommand() {
        fixture.given(runningR())
                .when(step(EngineFixtures.line(41, new ComputeTokens("r", 0)),
                        EngineFixtures.line(7, new AppendTokens("r", List.of(-5)))))
                .expectEventsMatching(exactly(rejected(41, "ComputeTokens", INVALID_ARGUMENT, "r"),
                        rejected(7, "AppendTokens", INVALID_ARGUMENT, "r")));
    }
}
