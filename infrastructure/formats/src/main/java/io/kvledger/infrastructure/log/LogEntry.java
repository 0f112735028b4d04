package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestEvent;
import io.kvledger.infrastructure.json.EventJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Objects;

/**
 * One line of an event log: its position, its event and, on demand, the line as a tree.
 *
 * <p>A line read by the streaming path keeps its bytes and builds the tree only when {@link #raw()} is
 * asked for: the log tools fold the event and seldom look at the line itself, and a tree per line cost
 * more than the parse.
 */
public final class LogEntry {

    private final long line;
    private final long seq;
    private final String type;
    private final EngineEvent event;
    private final Envelope envelope;
    /** The line's bytes while its tree is not made yet; {@code null} once it is, or when it was given. */
    private byte[] text;
    private volatile ObjectNode raw;

    /**
     * @param line     the physical line number, from 1
     * @param seq      the event's {@code seq}
     * @param type     its type name
     * @param event    the event, or {@code null} for a type this version does not know (kept, not folded)
     * @param envelope Axon's metadata when the line came from a store, else {@code null}
     * @param raw      the line as read (after upcasting)
     */
    public LogEntry(long line, long seq, String type, EngineEvent event, Envelope envelope, ObjectNode raw) {
        this(line, seq, type, event, envelope, Objects.requireNonNull(raw, "raw"), null);
    }

    private LogEntry(long line, long seq, String type, EngineEvent event, Envelope envelope, ObjectNode raw, byte[] text) {
        this.line = line;
        this.seq = seq;
        this.type = type;
        this.event = event;
        this.envelope = envelope;
        this.raw = raw;
        this.text = text;
    }

    /** An entry whose tree is parsed from {@code text} (a well-formed line of the current revision) when asked for. */
    static LogEntry ofText(long line, long seq, String type, EngineEvent event, byte[] text) {
        return new LogEntry(line, seq, type, event, null, null, text);
    }

    /**
     * This line with {@code replacement} as its event (an equal event built otherwise: a prompt hashed ahead by
     * the thread that read the line); the line itself, its tree or bytes, is shared.
     *
     * <p>Only a cheap guard here, same type and same request: comparing the events walks every prompt token on the
     * parse thread, once per line. That the replacement equals the event read is pinned by the callers' tests
     * ({@code PromptHashingTest}).
     */
    public LogEntry withEvent(EngineEvent replacement) {
        if (event == null || replacement == null || replacement.getClass() != event.getClass()
                || event instanceof RequestEvent read && !read.requestId().equals(((RequestEvent) replacement).requestId())) {
            throw new IllegalArgumentException("an entry's event is replaced only by an equal one");
        }
        synchronized (this) {
            return new LogEntry(line, seq, type, replacement, envelope, raw, text);
        }
    }

    public long line() {
        return line;
    }

    public long seq() {
        return seq;
    }

    public String type() {
        return type;
    }

    /** The event, or {@code null} for a type this version does not know (kept, not folded). */
    public EngineEvent event() {
        return event;
    }

    /** Axon's metadata when the line came from a store, else {@code null}. */
    public Envelope envelope() {
        return envelope;
    }

    /** The line as read (after upcasting), as a tree. */
    public ObjectNode raw() {
        ObjectNode tree = raw;
        if (tree == null) {
            synchronized (this) {
                tree = raw;
                if (tree == null) {
                    tree = parse(text);
                    raw = tree;
                    text = null;
                }
            }
        }
        return tree;
    }

    private static ObjectNode parse(byte[] text) {
        try {
            JsonNode node = EventJson.mapper().readTree(text);
            return (ObjectNode) node; // the streaming path read it as an object already
        } catch (IOException e) {
            throw new UncheckedIOException("a line read once no longer parses", e);
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof LogEntry that && line == that.line && seq == that.seq && type.equals(that.type)
                && Objects.equals(event, that.event) && Objects.equals(envelope, that.envelope) && raw().equals(that.raw());
    }

    @Override
    public int hashCode() {
        return Objects.hash(line, seq, type, event, envelope, raw());
    }

    @Override
    public String toString() {
        return "LogEntry[line=" + line + ", seq=" + seq + ", type=" + type + ", event=" + event + ", envelope=" + envelope
                + ", raw=" + raw() + "]";
    }
}
