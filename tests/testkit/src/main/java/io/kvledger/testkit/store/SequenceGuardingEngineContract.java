package io.kvledger.testkit.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.junit.jupiter.api.Test;

/**
 * What a durable engine adds to {@link EventStorageEngineContract}: one event per (aggregate, sequence
 * number), no gaps, and an append that is refused whole. Axon's JDBC engines get this from a unique key;
 * a second writer of the same engine (another process, a stale cache) is refused instead of forking it.
 */
public abstract class SequenceGuardingEngineContract extends EventStorageEngineContract {

    @Test
    public void aDuplicateSequenceNumberIsRefusedAndNothingOfItsAppendIsStored() {
        engine.appendEvents(event("a", 0), event("a", 1));

        assertThrows(ConcurrencyException.class, () -> engine.appendEvents(event("b", 0), event("a", 1)));

        assertEquals(2, read("a", 0).size());
        assertEquals(List.of(), read("b", 0), "an append is all or nothing");
        assertEquals(2, track(null).size());
        engine.appendEvents(event("a", 2));
        assertEquals(Optional.of(2L), engine.lastSequenceNumberFor("a"), "the store takes appends after a refusal");
    }

    @Test
    public void aSecondFirstEventOfAnAggregateIsRefusedAsAStreamCreation() {
        engine.appendEvents(event("a", 0), event("a", 1));

        assertThrows(AggregateStreamCreationException.class, () -> engine.appendEvents(event("a", 0)));
        assertEquals(Optional.of(1L), engine.lastSequenceNumberFor("a"));
    }

    @Test
    public void aDuplicateWithinOneAppendIsRefused() {

        assertThrows(ConcurrencyException.class, () -> engine.appendEvents(event("a", 0), event("a", 1), event("a", 1)));
        assertEquals(Optional.empty(), engine.lastSequenceNumberFor("a"));
    }

    @Test
    public void aGapInAnAggregatesSequenceIsRefused() {
        engine.appendEvents(event("a", 0));

        assertThrows(ConcurrencyException.class, () -> engine.appendEvents(event("a", 2)));
        assertEquals(Optional.of(0L), engine.lastSequenceNumberFor("a"));
    }
}
