package io.kvledger.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.command.AbortRequest;
import io.kvledger.domain.command.AppendTokens;
import io.kvledger.domain.command.RegisterRequest;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.state.RequestStatus;
import io.kvledger.domain.state.RetiredRequests;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The bound on retired requests (README, "Bounded memory"): the last {@code capacity} retired ids are
 * remembered, so late commands are REQUEST_TERMINATED and re-registrations DUPLICATE_REQUEST; an id
 * retired longer ago is forgotten, oldest first: UNKNOWN_REQUEST, and it may be registered again.
 */
class RetiredRequestsTest {

    @Test
    void theOldestRetiredIdIsForgottenFirstWhenTheBoundIsExceeded() {
        RetiredRequests retired = RetiredRequests.empty(3)
                .retire("a", RequestStatus.ABORTED).retire("b", RequestStatus.FINISHED).retire("c", RequestStatus.ABORTED);
        assertEquals(3, retired.size());
        assertEquals(0, retired.forgotten());

        RetiredRequests kept = retired.copy();
        RetiredRequests more = retired.retire("d", RequestStatus.FINISHED);

        assertEquals(3, more.size());
        assertEquals(1, more.forgotten());
        assertNull(more.getOrElse("a", null));
        assertEquals(RequestStatus.FINISHED, more.getOrElse("b", null));
        assertEquals(List.of("b", "c", "d"), more.oldestFirst());
        assertTrue(kept.containsKey("a"), "a copy taken before is unchanged");
        assertEquals(List.of("a", "b", "c"), kept.oldestFirst());
    }

    @Test
    void givenRetiredRequestsWithinTheBoundWhenTheyAreAddressedThenTerminatedAndDuplicate() {
        DomainLedger ledger = ledgerRemembering(2);
        ledger.run(new RegisterRequest("r1", List.of(1, 2)), new AbortRequest("r1"),
                new RegisterRequest("r2", List.of(1, 2)), new AbortRequest("r2"));

        assertEquals(RejectionCode.REQUEST_TERMINATED, ledger.rejected(new AbortRequest("r1")));
        assertEquals(RejectionCode.REQUEST_TERMINATED, ledger.rejected(new AppendTokens("r1", List.of(3))));
        assertEquals(RejectionCode.DUPLICATE_REQUEST, ledger.rejected(new RegisterRequest("r1", List.of(5))));
    }

    @Test
    void givenARetiredRequestPastTheBoundWhenItIsAddressedThenUnknownAndItMayBeRegisteredAgain() {
        DomainLedger ledger = ledgerRemembering(2);
        ledger.run(new RegisterRequest("r1", List.of(1, 2)), new AbortRequest("r1"),
                new RegisterRequest("r2", List.of(1, 2)), new AbortRequest("r2"),
                new RegisterRequest("r3", List.of(1, 2)), new AbortRequest("r3"));

        assertEquals(RejectionCode.UNKNOWN_REQUEST, ledger.rejected(new AbortRequest("r1")));
        assertEquals(RejectionCode.REQUEST_TERMINATED, ledger.rejected(new AbortRequest("r2")), "r2 is still remembered");
        assertEquals(List.of(new RequestRegistered("r1", 1, List.of(9))), ledger.run(new RegisterRequest("r1", List.of(9))));
        assertFalse(ledger.state.isTerminated("r1"), "a new request under the forgotten id");
    }

    @Test
    void memoryStaysWithinTheBoundHoweverManyRequestsEnd() {
        DomainLedger ledger = ledgerRemembering(10);
        for (int i = 0; i < 1_000; i++) {
            ledger.run(new RegisterRequest("r" + i, List.of(1, 2, 3)), new AbortRequest("r" + i));
        }

        assertEquals(10, ledger.state.retired().size());
        assertEquals(990, ledger.state.retired().forgotten());
        assertTrue(ledger.state.requests().isEmpty(), "no live residue either");
        assertEquals(1_000, ledger.state.registered());
    }

    @Test
    void theEnginesBoundIsTheDocumentedOne() {
        assertEquals(65_536, RetiredRequests.CAPACITY);
        assertEquals(RetiredRequests.CAPACITY,
                EngineFold.evolve(null, io.kvledger.domain.decision.Decider.configure(EngineConfig.DEFAULTS)).retired().capacity());
    }

    private static DomainLedger ledgerRemembering(int capacity) {
        DomainLedger ledger = new DomainLedger(EngineConfig.DEFAULTS);
        ledger.state = ledger.state.withRetired(RetiredRequests.empty(capacity));
        return ledger;
    }
}
