package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.core.JsonGenerator;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.json.EventLineFields;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/**
 * Writes events as log lines, numbered with {@code seq} from 1, straight to bytes: no string or tree per line,
 * no character encoding pass. The bytes are those of {@code EventLogWriter} (the event's fields by Jackson's
 * own serializer of its record, unwrapped into the line, in the contract's spacing). A simulation writes a
 * million lines in seconds, so the cost per line is most of what writing its log costs: the common lines are
 * laid out by {@link EventLineBytes}, the rest (the configuration, rejections, strings JSON escapes) by one
 * reused Jackson generator. Not thread-safe.
 */
public final class LogLineEncoder {

    /** Bytes gathered before they go to the stream in one write. */
    private static final int BLOCK = 1 << 16;

    private final OutputStream out;
    private final EventLineBytes lines = new EventLineBytes(BLOCK + 4096);
    private final ByteArrayOutputStream declined = new ByteArrayOutputStream(256);
    private final EventLineFields fields = new EventLineFields();
    private JsonGenerator generator;
    private long seq;

    /** @param out receives the bytes in blocks of about 64 KiB, and at {@link #flush} */
    public LogLineEncoder(OutputStream out) {
        this.out = out;
    }

    public void write(EngineEvent event) {
        try {
            if (!lines.append(++seq, event)) {
                writeThroughJackson(seq, event);
            }
            if (lines.size() >= BLOCK) {
                drain();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the event log", e);
        }
    }

    private void writeThroughJackson(long lineSeq, EngineEvent event) throws IOException {
        if (generator == null) {
            generator = EventJson.lineGenerator(declined);
        }
        declined.reset();
        fields.open(generator, lineSeq, event);
        generator.writeEndObject();
        generator.writeRaw('\n');
        generator.flush();
        lines.append(declined.toByteArray(), 0, declined.size());
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
            drain();
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the event log", e);
        }
    }

    private void drain() throws IOException {
        if (lines.size() > 0) {
            out.write(lines.bytes(), 0, lines.size());
            lines.clear();
        }
    }
}
