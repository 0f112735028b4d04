package io.kvledger.infrastructure.log;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.json.EventJson;
import java.io.Flushable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;

/** Writes events as log lines, numbering them with {@code seq} from 1. */
public final class EventLogWriter implements Flushable {

    private final Writer out;
    private long seq;

    public EventLogWriter(Writer out) {
        this.out = out;
    }

    public void write(EngineEvent event) {
        try {
            out.write(EventJson.toLine(++seq, event));
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the event log", e);
        }
    }

    /**
     * Writes a line read from another log (one of a type this version does not know, say) with the next
     * seq, without its envelope.
     */
    public void writeLine(com.fasterxml.jackson.databind.node.ObjectNode line) {
        com.fasterxml.jackson.databind.node.ObjectNode copy = line.deepCopy();
        copy.remove("envelope");
        copy.put("seq", ++seq);
        try {
            out.write(EventJson.toLine(copy));
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the event log", e);
        }
    }

    public void writeAll(Iterable<? extends EngineEvent> events) {
        events.forEach(this::write);
    }

    /** The seq of the last event written (0 before the first). */
    public long lastSeq() {
        return seq;
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }
}
