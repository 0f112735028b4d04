package io.kvledger.infrastructure.log;

import java.time.Instant;

/**
 * What Axon needs beside an event, kept in a store line's {@code envelope} object so that the
 * contract's fields stay at the top level untouched.
 *
 * @param aggregateId    the engine the event belongs to
 * @param sequenceNumber the event's position in that engine's stream, from 0
 * @param eventId        a unique id
 * @param timestamp      when it was recorded
 * @param revision       the revision of the event's type when it was written
 */
public record Envelope(String aggregateId, long sequenceNumber, String eventId, Instant timestamp, String revision) {

    /** The revision every type is written at now; older lines are upcast to it on read. */
    public static final String CURRENT_REVISION = "1";
}
