package io.kvledger.application.engine;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.testkit.LedgerFixture;
import java.util.ArrayList;
import java.util.List;

/**
 * The rule tests' given-when-then vocabulary ({@code given(...).when(step(...)).expectEventsMatching(exactly(...))}),
 * kept as it was written for Axon's aggregate fixture, now delegating to the public testkit: the given
 * events are resumed by a real ledger, the step goes through the embedding API, and the testkit checks
 * replay equals live and compares the events exactly.
 */
final class RuleFixture {

    /** The given part: events, or lists of them, in order. */
    When given(Object... parts) {
        List<EngineEvent> events = new ArrayList<>();
        for (Object part : parts) {
            if (part instanceof List<?> list) {
                list.forEach(e -> events.add((EngineEvent) e));
            } else {
                events.add((EngineEvent) part);
            }
        }
        return new When(LedgerFixture.fromHistory(events));
    }

    When given(List<?> events) {
        return given(new Object[] {events});
    }

    record When(LedgerFixture fixture) {
        Then when(List<StepEntry> step) {
            return new Then(fixture, step);
        }
    }

    record Then(LedgerFixture fixture, List<StepEntry> step) {
        /** Exactly these domain events, in this order, and no more. */
        void expectEventsMatching(EngineFixtures.Expected expected) {
            fixture.whenStep(step).thenEvents(expected.events());
        }
    }
}
