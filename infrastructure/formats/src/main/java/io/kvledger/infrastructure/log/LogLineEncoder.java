package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.core.JsonGenerator;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.json.EventLineFields;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * Writes events as log lines, numbered with {@code seq} from 1, straight to bytes through one reused
 * Jackson generator: no string, tree or generator per line, no character encoding pass. The bytes are
 * those of {@code EventLogWriter} (the event's fields by Jackson's own serializer of its record,
 * unwrapped into the line, in the contract's spacing). A simulation writes a million lines in seconds,
 * so the cost per line is most of what writing its log costs. Not thread-safe.
 */
public final class LogLineEncoder {

    private final JsonGenerator generator;
    private final EventLineFields fields = new EventLineFields();
    private long seq;

    /** @param out receives the bytes in the generator's blocks of a few kilobytes, and at {@link #flush} */
    public LogLineEncoder(OutputStream out) {
        try {
            generator = EventJson.lineGenerator(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void write(EngineEvent event) {
        try {
            fields.open(generator, ++seq, event);
            generator.writeEndObject();
            generator.writeRaw('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the event log", e);
        }
    }

    public void writeAll(Iterable<? extends EngineEvent> events) {
        for (EngineEvent event : events) {
            write(event);
        }
    }

    /** The seq of the last event written (0 before the first). */
    public long lastSeq() {
        return seq;
    }

    public void flush() {
        try {
            generator.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the event log", e);
        }
    }
}
