package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.json.EventTypes;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * The fast path of {@link EventLogReader}: a line read with Jackson's streaming parser straight into
 * the event of its type, the schema checked token by token, with no tree. It takes only lines it is
 * sure of, the lines our writer writes: {@code seq} then {@code type} first, a known type, exactly its
 * required fields once each, each of its shape, no envelope, nothing after the object. For anything
 * else (a malformed line, a foreign field order, an extra field, an envelope, the first line) it says
 * {@code null} and the tree path reads the line, giving today's event or today's message. In a grouped log
 * ({@link #configure}) its per-group fields are read in their groups' shapes, as the tree path reads them. So this path
 * never accepts a line the tree path refuses, and never reads one differently (shown by
 * {@code StreamedLinesTest}). {@link StreamedEventArray} reads a stored step's events with the same
 * {@link #readRest}.
 */
final class StreamedLines {

    /**
     * The tree path's factory, with its limits, but without its duplicate detection: this path refuses a
     * duplicate itself, and only among the fields it reads.
     */
    private static final JsonFactory FACTORY = EventJson.mapper().getFactory().copy()
            .disable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature())
            // This path's errors are never shown (the tree path's are), so its parsers need no source to quote.
            .disable(StreamReadFeature.INCLUDE_SOURCE_IN_LOCATION.mappedFeature());

    /**
     * A known type this path reads: its name (also as chars, matched without making a String), its fields and
     * their shapes in a grouped log (contract 7.2: which are per group, and which may hold the null block).
     */
    private record Layout(String type, char[] name, List<EventSchema.Field> required, StreamedFields.Shapes shapes) {
        static Layout of(String type) {
            List<EventSchema.Field> required = EventSchema.requiredFields(type);
            return new Layout(type, type.toCharArray(), required, required == null ? null : StreamedFields.Shapes.of(type, required));
        }
    }

    private static final Layout[] LAYOUTS = EventDecoders.types().stream()
            .filter(type -> !"EngineConfigured".equals(type)) // a configuration is checked as a config: the tree path's
            .map(Layout::of)
            .filter(layout -> layout.required() != null && StreamedFields.fits(layout.required()))
            .toArray(Layout[]::new);

    private final StreamedFields fields = new StreamedFields();
    /** The layout of the line before: most lines are of the type of some line shortly before. */
    private Layout recent = LAYOUTS[0];

    /**
     * The entry of a line read on the fast path, or {@code null} when the tree path must read it.
     *
     * @param lastSeq the seq of the line before; the line's seq must exceed it
     */
    LogEntry read(long line, byte[] bytes, int offset, int length, long lastSeq) {
        try (JsonParser parser = parser(bytes, offset, length)) {
            return read(line, parser, bytes, offset, length, lastSeq);
        } catch (IOException | RuntimeException e) {
            return null; // the tree path will say what is wrong, in its words
        }
    }

    private LogEntry read(long line, JsonParser parser, byte[] bytes, int offset, int length, long lastSeq)
            throws IOException {
        if (parser.nextToken() != JsonToken.START_OBJECT || !"seq".equals(parser.nextFieldName())) {
            return null;
        }
        JsonToken token = parser.nextToken();
        if (token != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            return null;
        }
        long seq = parser.getLongValue();
        if (seq <= lastSeq || seq < 1 || !"type".equals(parser.nextFieldName())
                || parser.nextToken() != JsonToken.VALUE_STRING) {
            return null;
        }
        EngineEvent event = readRest(parser);
        if (event == null || parser.nextToken() != null) {
            return null;
        }
        return LogEntry.ofText(line, seq, EventTypes.nameOf(event), event, Arrays.copyOfRange(bytes, offset, offset + length));
    }

    /**
     * The event whose object the parser is in, on the value of its {@code type}: its required fields, then
     * the object's end. {@code null} when this path is not sure of it (an unknown type keeps its whole
     * line; a missing, extra, repeated or ill-shaped field), with the parser left anywhere.
     */
    EngineEvent readRest(JsonParser parser) throws IOException {
        Layout layout = layout(parser);
        if (layout == null) {
            return null;
        }
        fields.start(layout.required(), layout.shapes());
        JsonToken token;
        for (token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
            int index = fields.indexOf(parser.currentName());
            if (index < 0 || fields.seen(index) || !fields.read(index, parser, parser.nextToken())) {
                return null;
            }
        }
        if (token != JsonToken.END_OBJECT || !fields.complete()) {
            return null;
        }
        return EventDecoders.decode(layout.type(), fields);
    }

    /**
     * Reads the lines of a log whose {@code EngineConfigured} gives {@code groups} ({@code null}: none): its
     * per-group fields in the shapes of contract 7.2, as the tree path reads them.
     */
    void configure(List<KvCacheGroup> groups) {
        fields.configure(groups);
    }

    /** A parser of these bytes with this path's settings. */
    static JsonParser parser(byte[] bytes, int offset, int length) throws IOException {
        return FACTORY.createParser(bytes, offset, length);
    }

    /** The layout of the type the parser is on, or {@code null} for a type this path does not read. */
    private Layout layout(JsonParser parser) throws IOException {
        char[] text = parser.getTextCharacters();
        int start = parser.getTextOffset();
        int length = parser.getTextLength();
        if (matches(recent, text, start, length)) {
            return recent;
        }
        for (Layout layout : LAYOUTS) {
            if (matches(layout, text, start, length)) {
                recent = layout;
                return layout;
            }
        }
        return null;
    }

    private static boolean matches(Layout layout, char[] text, int start, int length) {
        return layout.name().length == length && Arrays.equals(layout.name(), 0, length, text, start, start + length);
    }
}
