package io.kvledger.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.decision.Decider;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.state.EngineState;
import io.kvledger.domain.state.RequestState;
import java.util.ArrayList;
import java.util.List;

/** The pure rules as a tiny engine for example tests: decide, keep the state, keep the log. */
final class DomainLedger {

    final List<EngineEvent> log = new ArrayList<>();
    EngineState state;

    DomainLedger(EngineConfig config) {
        EngineEvent configured = Decider.configure(config);
        log.add(configured);
        state = EngineFold.evolve(null, configured);
    }

    /** Runs accepted commands; fails on a rejection. Returns the events of the last one. */
    List<EngineEvent> run(EngineCommand... commands) {
        List<EngineEvent> events = List.of();
        for (EngineCommand command : commands) {
            Decision decision = Decider.decide(state, command);
            if (decision instanceof Decision.Rejected rejected) {
                fail(command + " was rejected: " + rejected);
            }
            events = decision.events(log.size(), command);
            log.addAll(events);
            for (EngineEvent event : events) {
                state = EngineFold.evolve(state, event);
            }
        }
        return events;
    }

    /** The code a command is rejected with; the state must not change. */
    RejectionCode rejected(EngineCommand command) {
        Decision decision = Decider.decide(state, command);
        if (decision instanceof Decision.Rejected rejected) {
            return rejected.code();
        }
        return fail(command + " was accepted: " + decision.events(0, command));
    }

    RequestState request(String id) {
        return state.heldRequest(id);
    }

    void assertReplays() {
        assertEquals(EngineFold.fold(log), state, "the log replays to the live state");
    }

    static List<Integer> tokens(int from, int count) {
        List<Integer> tokens = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            tokens.add(from + i);
        }
        return tokens;
    }
}
