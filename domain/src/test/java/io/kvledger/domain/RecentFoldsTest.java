package io.kvledger.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.state.EngineState;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A remembered fold is given back only for the very same state object and an equal event, and only for
 * the last 16 folds; anything else is folded, to what {@link EngineFold#evolve} gives.
 */
class RecentFoldsTest {

    private static final EngineState CONFIGURED = EngineFold.evolve(null, EngineConfigured.of(EngineConfig.DEFAULTS));

    private static RequestRegistered registered(int i) {
        return new RequestRegistered("r" + i, 2, List.of(i, i + 1));
    }

    @Test
    void theSameStateAndAnEqualEventGiveTheRememberedResult() {
        RecentFolds folds = new RecentFolds();
        EngineState first = folds.evolve(CONFIGURED, registered(1));
        assertEquals(EngineFold.evolve(CONFIGURED, registered(1)), first);
        assertSame(first, folds.evolve(CONFIGURED, registered(1)), "an equal event, another instance");
    }

    @Test
    void anotherEventOrAnEqualButOtherStateIsFolded() {
        RecentFolds folds = new RecentFolds();
        EngineState first = folds.evolve(CONFIGURED, registered(1));
        EngineState other = folds.evolve(CONFIGURED, registered(2));
        assertEquals(EngineFold.evolve(CONFIGURED, registered(2)), other);
        EngineState equalState = EngineFold.evolve(null, EngineConfigured.of(EngineConfig.DEFAULTS));
        EngineState again = folds.evolve(equalState, registered(1));
        assertEquals(first, again);
        assertNotSame(first, again, "remembered by the state's identity, not its equality");
    }

    @Test
    void theFirstFoldOfALogIsNotRemembered() {
        RecentFolds folds = new RecentFolds();
        EngineConfigured configured = EngineConfigured.of(EngineConfig.DEFAULTS);
        EngineState first = folds.evolve(null, configured);
        assertEquals(CONFIGURED, first);
        assertNotSame(first, folds.evolve(null, configured));
    }

    @Test
    void sixteenFoldsAreRememberedAndTheSeventeenthPushesTheOldestOut() {
        RecentFolds folds = new RecentFolds();
        List<EngineState> states = new ArrayList<>();
        EngineState state = CONFIGURED;
        for (int i = 0; i < 17; i++) {
            states.add(state);
            state = folds.evolve(state, registered(i));
        }
        // Folds 1..16 are remembered (newest first); fold 0 was pushed out by the seventeenth.
        for (int i = 16; i >= 1; i--) {
            EngineState remembered = EngineFold.evolve(states.get(i), registered(i));
            EngineState given = folds.evolve(states.get(i), registered(i));
            assertEquals(remembered, given);
            assertSame(given, folds.evolve(states.get(i), registered(i)), "fold " + i);
        }
        RecentFolds seventeen = new RecentFolds();
        assertNotSame(foldChain(seventeen, 17), seventeen.evolve(CONFIGURED, registered(0)),
                "the oldest of seventeen is forgotten");
        RecentFolds sixteen = new RecentFolds();
        assertSame(foldChain(sixteen, 16), sixteen.evolve(CONFIGURED, registered(0)), "the oldest of sixteen is still there");
    }

    /** Folds registrations 0 .. {@code length - 1} one onto the other from {@link #CONFIGURED}; the first fold's result. */
    private static EngineState foldChain(RecentFolds folds, int length) {
        EngineState first = null;
        EngineState state = CONFIGURED;
        for (int i = 0; i < length; i++) {
            state = folds.evolve(state, registered(i));
            first = i == 0 ? state : first;
        }
        return first;
    }
}
