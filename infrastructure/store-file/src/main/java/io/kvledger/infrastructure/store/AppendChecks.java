package io.kvledger.infrastructure.store;

import static java.lang.String.format;

import org.axonframework.eventhandling.DomainEventMessage;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.modelling.command.AggregateStreamCreationException;
import org.axonframework.modelling.command.ConcurrencyException;

/** What an append must pass before any byte of it is written. */
final class AppendChecks {

    private AppendChecks() {
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
