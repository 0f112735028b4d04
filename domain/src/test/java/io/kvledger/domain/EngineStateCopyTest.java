package io.kvledger.domain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.state.EngineState;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link EngineState#copy()} is a state of its own: over the seeded programs of {@link RecordedLogsTest}, a copy
 * taken at any event equals the state it copies; folding the rest of the log into the original leaves the copy
 * equal (and printing the same) to a fresh fold of the events before the cut; folding the rest into the copy
 * then gives the whole log's state and leaves the original, folded to the end, as it was.
 */
class EngineStateCopyTest {

    @Test
    void foldingEitherOfTheTwoLeavesTheOtherAsItWas() {
        int changedAfterTheCut = 0;
        for (long seed = 1; seed <= 300; seed++) {
            changedAfterTheCut += check(RecordedLogsTest.run(seed), new Random(seed), "program " + seed);
        }
        assertTrue(changedAfterTheCut > 200, "cuts after which the log still changed the state: " + changedAfterTheCut);
    }

    /** Cuts {@code log} at a random event; returns 1 when the events after the cut changed the state. */
    private static int check(List<EngineEvent> log, Random random, String what) {
        int cut = 1 + random.nextInt(log.size());
        List<EngineEvent> before = log.subList(0, cut);
        List<EngineEvent> after = log.subList(cut, log.size());
        EngineState original = EngineFold.fold(before);
        EngineState copy = original.copy();
        assertNotSame(original.requests(), copy.requests(), what);
        assertEquals(original, copy, what + ": a copy equals its original");
        assertEquals(original.toString(), copy.toString(), what);

        for (EngineEvent event : after) {
            original = EngineFold.evolve(original, event);
        }
        EngineState atTheCut = EngineFold.fold(before);
        assertEquals(atTheCut, copy, what + ": folding the original changed the copy");
        assertEquals(atTheCut.toString(), copy.toString(), what);

        String whole = EngineFold.fold(log).toString();
        assertEquals(whole, original.toString(), what);
        for (EngineEvent event : after) {
            copy = EngineFold.evolve(copy, event);
        }
        assertEquals(whole, copy.toString(), what + ": the copy folds on as its original did");
        assertEquals(whole, original.toString(), what + ": folding the copy changed the original");
        return atTheCut.toString().equals(whole) ? 0 : 1;
    }
}
