package io.kvledger.testkit.store;

import io.kvledger.application.engine.StepEvents;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kvledger.domain.config.EngineConfig;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestRegistered;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.GenericDomainEventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.eventhandling.TrackingToken;
import org.axonframework.eventsourcing.eventstore.EventStorageEngine;
import org.axonframework.messaging.MetaData;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.axonframework.modelling.command.ConcurrencyException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every event storage engine under the ledger must do. A subclass supplies the engine and says
 * which optional guarantees it gives; a test of a guarantee it does not give is excluded (reported as
 * skipped with the reason), every other test runs.
 *
 * <p>Payloads are engine events and each aggregate starts with {@code EngineConfigured}, as the
 * ledger's own streams do, so that a store holding only the contract's log can take part.
 *
 * <p>Public in {@code kvledger-testkit}: a store of a user's own (behind a
 * {@code LedgerStoreProvider}) is held to it by a test class that extends it and supplies the engine;
 * {@link SequenceGuardingEngineContract} adds what a durable store must also refuse.
 */
public abstract class EventStorageEngineContract {

    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00.123456789Z");

    protected EventStorageEngine engine;

    /** A new, empty engine. */
    protected abstract EventStorageEngine createEngine() throws Exception;

    /** To what a stored timestamp is kept: the nanosecond by default (Axon's JDBC engine keeps milliseconds). */
    protected ChronoUnit timestampPrecision() {
        return ChronoUnit.NANOS;
    }

    /** Releases the engine (files, locks); nothing by default. */
    protected void closeEngine(EventStorageEngine engine) throws Exception {
    }

    @BeforeEach
    public void open() throws Exception {
        engine = createEngine();
    }

    @AfterEach
    public void close() throws Exception {
        closeEngine(engine);
    }

    @Test
    public void anEmptyStoreHasNoEvents() {
        assertEquals(List.of(), read("a", 0));
        assertEquals(Optional.empty(), engine.lastSequenceNumberFor("a"));
        assertEquals(List.of(), track(null));
        assertEquals(List.of(), track(engine.createTailToken()));
        assertEquals(List.of(), track(engine.createHeadToken()));
    }

    @Test
    public void appendedEventsAreReadBackByAggregateWholeAndInOrder() {
        List<DomainEventMessage<?>> a = List.of(event("a", 0), event("a", 1), event("a", 2));
        List<DomainEventMessage<?>> b = List.of(event("b", 0), event("b", 1));
        engine.appendEvents(a.get(0), b.get(0));
        engine.appendEvents(a.get(1));
        engine.appendEvents(b.get(1), a.get(2));

        assertSameEvents(a, read("a", 0), timestampPrecision());
        assertSameEvents(b, read("b", 0), timestampPrecision());
        assertEquals(List.of(), read("c", 0));
    }

    @Test
    public void readingFromASequenceNumberSkipsTheEventsBeforeIt() {
        List<DomainEventMessage<?>> a = List.of(event("a", 0), event("a", 1), event("a", 2), event("a", 3));
        engine.appendEvents(a);

        assertSameEvents(a.subList(2, 4), read("a", 2), timestampPrecision());
        assertEquals(List.of(), read("a", 4));
    }

    @Test
    public void theLastSequenceNumberIsTheHighestStored() {
        engine.appendEvents(event("a", 0), event("a", 1), event("b", 0));
        engine.appendEvents(event("a", 2));

        assertEquals(Optional.of(2L), engine.lastSequenceNumberFor("a"));
        assertEquals(Optional.of(0L), engine.lastSequenceNumberFor("b"));
        assertEquals(Optional.empty(), engine.lastSequenceNumberFor("c"));
    }

    @Test
    public void aTrackingReadYieldsEveryEventInAppendOrderWithIncreasingTokens() {
        List<DomainEventMessage<?>> appended = List.of(event("a", 0), event("b", 0), event("a", 1), event("b", 1));
        engine.appendEvents(appended.subList(0, 2));
        engine.appendEvents(appended.subList(2, 4));

        List<TrackedEventMessage<?>> tracked = track(null);

        assertSameEvents(appended, tracked.stream().map(t -> (DomainEventMessage<?>) t).toList(), timestampPrecision());
        for (int i = 1; i < tracked.size(); i++) {
            TrackingToken before = tracked.get(i - 1).trackingToken();
            TrackingToken after = tracked.get(i).trackingToken();
            assertTrue(after.covers(before) && !before.covers(after), "tokens increase: " + before + " then " + after);
        }
    }

    @Test
    public void aTrackingReadFromATokenYieldsOnlyTheEventsAfterIt() {
        List<DomainEventMessage<?>> appended = List.of(event("a", 0), event("a", 1), event("a", 2), event("b", 0));
        engine.appendEvents(appended);
        TrackingToken second = track(null).get(1).trackingToken();

        List<TrackedEventMessage<?>> rest = track(second);

        assertSameEvents(appended.subList(2, 4), rest.stream().map(t -> (DomainEventMessage<?>) t).toList(), timestampPrecision());
        assertEquals(List.of(), track(rest.get(1).trackingToken()));
    }

    @Test
    public void theTailTokenReadsEverythingAndTheHeadTokenOnlyWhatComesLater() {
        engine.appendEvents(event("a", 0), event("a", 1));
        TrackingToken tail = engine.createTailToken();
        TrackingToken head = engine.createHeadToken();
        engine.appendEvents(event("a", 2));

        assertEquals(3, track(tail).size());
        List<TrackedEventMessage<?>> later = track(head);
        assertEquals(1, later.size());
        assertEquals(2, ((DomainEventMessage<?>) later.get(0)).getSequenceNumber());
    }

    @Test
    public void aTokenAtAnInstantStartsAtTheFirstEventRecordedAtOrAfterIt() {
        engine.appendEvents(event("a", 0, T0), event("a", 1, T0.plusSeconds(1)), event("a", 2, T0.plusSeconds(2)));

        List<TrackedEventMessage<?>> fromSecond = track(engine.createTokenAt(T0.plusSeconds(1)));
        List<TrackedEventMessage<?>> fromBetween = track(engine.createTokenAt(T0.plusMillis(1500)));

        assertEquals(List.of(1L, 2L), sequenceNumbers(fromSecond));
        assertEquals(List.of(2L), sequenceNumbers(fromBetween));
        assertEquals(List.of(), track(engine.createTokenAt(T0.plusSeconds(3))));
    }

    // ----- helpers

    public static DomainEventMessage<?> event(String aggregateId, long sequenceNumber) {
        return new GenericDomainEventMessage<>("EngineAggregate", aggregateId, sequenceNumber, payload(aggregateId, sequenceNumber));
    }

    public static DomainEventMessage<?> event(String aggregateId, long sequenceNumber, Instant timestamp) {
        return new GenericDomainEventMessage<>("EngineAggregate", aggregateId, sequenceNumber,
                payload(aggregateId, sequenceNumber), MetaData.emptyInstance(), aggregateId + "-" + sequenceNumber, timestamp);
    }

    /** An aggregate's first event configures it; later ones register distinct requests. */
    public static EngineEvent payload(String aggregateId, long sequenceNumber) {
        if (sequenceNumber == 0) {
            return EngineConfigured.of(EngineConfig.DEFAULTS.withGpuBlockSize(1 + Math.abs(aggregateId.hashCode() % 64)));
        }
        return new RequestRegistered(aggregateId + "/" + sequenceNumber, 2, List.of((int) sequenceNumber, 7));
    }

    protected List<DomainEventMessage<?>> read(String aggregateId, long from) {
        return new ArrayList<>(engine.readEvents(aggregateId, from).asStream().toList());
    }

    protected List<TrackedEventMessage<?>> track(TrackingToken after) {
        try (var stream = engine.readEvents(after, false)) {
            return new ArrayList<>(stream.toList());
        }
    }

    private static List<Long> sequenceNumbers(List<TrackedEventMessage<?>> tracked) {
        return tracked.stream().map(t -> ((DomainEventMessage<?>) t).getSequenceNumber()).toList();
    }

    /** Equal as the ledger needs them: identity, position, time and payload (not metadata or aggregate type). */
    public static void assertSameEvents(List<? extends DomainEventMessage<?>> expected, List<? extends DomainEventMessage<?>> actual) {
        assertSameEvents(expected, actual, ChronoUnit.NANOS);
    }

    /** As above, timestamps compared to {@code precision}. */
    public static void assertSameEvents(List<? extends DomainEventMessage<?>> expected, List<? extends DomainEventMessage<?>> actual,
                                           ChronoUnit precision) {
        assertEquals(expected.size(), actual.size(), "number of events");
        for (int i = 0; i < expected.size(); i++) {
            DomainEventMessage<?> e = expected.get(i);
            DomainEventMessage<?> a = assertInstanceOf(DomainEventMessage.class, actual.get(i));
            String at = "event " + i;
            assertEquals(e.getIdentifier(), a.getIdentifier(), at + " id");
            assertEquals(e.getAggregateIdentifier(), a.getAggregateIdentifier(), at + " aggregate");
            assertEquals(e.getSequenceNumber(), a.getSequenceNumber(), at + " sequence number");
            assertEquals(e.getTimestamp().truncatedTo(precision), a.getTimestamp(), at + " timestamp");
            assertEquals(domainEvents(e.getPayload()), domainEvents(a.getPayload()), at + " payload");
        }
    }

    /**
     * The domain events a payload carries. A store keeps domain events, not Axon's framing: the file
     * store reads every message back as a {@link StepEvents}, whatever single event it was appended as.
     */
    public static Object domainEvents(Object payload) {
        if (payload instanceof StepEvents step) {
            return step.events();
        }
        return payload instanceof io.kvledger.domain.event.EngineEvent event ? List.of(event) : payload;
    }
}
