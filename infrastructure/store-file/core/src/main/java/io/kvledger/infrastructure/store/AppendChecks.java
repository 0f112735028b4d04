package io.kvledger.infrastructure.store;

import static java.lang.String.format;

import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.axonframework.modelling.command.ConcurrencyException;

/** What an append must pass before any byte of it is written. */
final class AppendChecks {

    /** An append checked against the store, ready for the writer thread to encode. */
    record Append(List<DomainEventMessage<?>> messages, List<List<EngineEvent>> contents, int lines) {
    }

    /** Where the store stands: the seq of its last line and each aggregate's next sequence number. */
    interface Sequences {
        long lastSeq();

        long nextSequence(String aggregateId);
    }

    private AppendChecks() {
    }

    /** Validates the whole append before any byte of it is written: only an engine's events, in sequence. */
    static Append check(List<? extends EventMessage<?>> messages, Sequences index) {
        List<DomainEventMessage<?>> storable = new ArrayList<>(messages.size());
        List<List<EngineEvent>> contents = new ArrayList<>(messages.size());
        Map<String, Long> next = new HashMap<>();
        int lines = 0;
        for (EventMessage<?> message : messages) {
            DomainEventMessage<?> domain = storable(message);
            List<EngineEvent> events = StoreLines.eventsOf(domain);
            if (events.isEmpty()) {
                throw new IllegalArgumentException("a message with no events cannot be stored: " + message);
            }
            if (index.lastSeq() == 0 && lines == 0 && !(events.get(0) instanceof EngineConfigured)) {
                throw new IllegalArgumentException("a store's first event must be EngineConfigured, not " + events.get(0));
            }
            String aggregateId = domain.getAggregateIdentifier();
            long expected = next.computeIfAbsent(aggregateId, index::nextSequence);
            checkSequence(domain, expected);
            next.put(aggregateId, expected + 1);
            storable.add(domain);
            contents.add(events);
            lines += events.size();
        }
        return new Append(storable, contents, lines);
    }

    static DomainEventMessage<?> storable(EventMessage<?> event) {
        if (!(event instanceof DomainEventMessage<?> message) || message.getAggregateIdentifier() == null) {
            throw new IllegalArgumentException("only an aggregate's events can be stored, not " + event);
        }
        return message;
    }

    /** The checks Axon's engines make with a unique key on (aggregate, sequence number), plus no gaps. */
    static void checkSequence(DomainEventMessage<?> message, long expected) {
        long actual = message.getSequenceNumber();
        String aggregateId = message.getAggregateIdentifier();
        if (actual == expected) {
            return;
        }
        if (actual == 0) {
            throw new AggregateStreamCreationException(format("Cannot reuse aggregate identifier [%s] to create aggregate"
                    + " [%s] since identifiers need to be unique.", aggregateId, message.getType()));
        }
        if (actual < expected) {
            throw new ConcurrencyException(format("An event for aggregate [%s] at sequence [%d] was already inserted",
                    aggregateId, actual));
        }
        throw new ConcurrencyException(format("An event for aggregate [%s] at sequence [%d] cannot be appended:"
                + " the next sequence number is [%d]", aggregateId, actual, expected));
    }
}
