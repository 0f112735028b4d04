package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.UTF8StreamJsonParser;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.json.EventJson;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

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
 *
 * <p>One parser reads line after line (a parser made per line cost as much as a tenth of the reading), fed one
 * line at a time by a {@link LineFeed}, so it never reads past a line's end; after a line it declines, or one
 * that made it look past its end, the next line gets a new parser. So a line is read as a parser of its bytes
 * alone reads it ({@code ReusedParserTest}).
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
    private record Layout(String type, char[] name, List<EventSchema.Field> fields, String[] fieldNames,
            SerializableString[] names, StreamedFields.Shapes shapes, Function<LineFields, EngineEvent> decoder,
            int requiredCount) {
        static Layout of(String type) {
            List<EventSchema.Field> required = EventSchema.requiredFields(type);
            if (required == null) {
                return new Layout(type, type.toCharArray(), null, null, null, null, null, 0);
            }
            // The optional fields a type may carry (contract 9.1) follow its required ones, in the writer's order.
            List<EventSchema.Field> fields = new java.util.ArrayList<>(required);
            fields.addAll(EventSchema.optionalFields(type));
            String[] fieldNames = fields.stream().map(EventSchema.Field::name).toArray(String[]::new);
            SerializableString[] names = Arrays.stream(fieldNames).map(SerializedString::new).toArray(SerializableString[]::new);
            return new Layout(type, type.toCharArray(), List.copyOf(fields), fieldNames, names, StreamedFields.Shapes.of(type, fields),
                    EventDecoders.decoderOf(type), required.size());
        }
    }

    private static final SerializableString SEQ = new SerializedString("seq");
    private static final SerializableString TYPE = new SerializedString("type");

    private static final Layout[] LAYOUTS = EventDecoders.types().stream()
            .filter(type -> !"EngineConfigured".equals(type)) // a configuration is checked as a config: the tree path's
            .map(Layout::of)
            .filter(layout -> layout.fields() != null && StreamedFields.fits(layout.fields()))
            .toArray(Layout[]::new);

    /** The layouts by the length of their type's name: a name read is compared with those of its length only. */
    private static final Layout[][] BY_LENGTH = byLength(LAYOUTS);

    private final StreamedFields fields = new StreamedFields();
    private final TokenFieldReader reader;
    /** The layout of the line before: most lines are of the type of some line shortly before. */
    private Layout recent = LAYOUTS[0];
    private final LineFeed feed = new LineFeed();
    /** The parser of the lines read so far, or {@code null}: the next line gets a new one. */
    private JsonParser parser;

    StreamedLines() {
        this(new RecentStrings());
    }

    /** A reader whose ids and keys go through {@code strings}, shared with the byte decoder of the same log. */
    StreamedLines(RecentStrings strings) {
        this.reader = new TokenFieldReader(fields, strings);
    }

    /**
     * The entry of a line read on the fast path, or {@code null} when the tree path must read it.
     *
     * @param lastSeq the seq of the line before; the line's seq must exceed it
     */
    LogEntry read(long line, byte[] bytes, int offset, int length, long lastSeq) {
        if (parser == null) {
            feed.restart(); // a new parser's byte offsets count from its first line
        }
        feed.start(bytes, offset, length);
        LogEntry entry = null;
        boolean kept = false;
        try {
            if (parser == null) {
                parser = FACTORY.createParser(feed);
            }
            entry = read(line, parser, bytes, offset, length, lastSeq);
            // Only a parser that read its line to the object's end, no further, goes on to the next line; not one
            // that declined it (it stopped anywhere), was told end-of-input, or is not the byte parser (the first
            // bytes of the line it was made for looked like another encoding).
            kept = entry != null && !feed.overran() && parser instanceof UTF8StreamJsonParser;
        } catch (IOException | RuntimeException e) {
            // the tree path will say what is wrong, in its words
        } finally {
            if (!kept) {
                discardParser();
            }
        }
        return kept ? entry : null;
    }

    private void discardParser() {
        JsonParser discarded = parser;
        parser = null;
        if (discarded != null) {
            try {
                discarded.close(); // its buffers go back to the thread's pool, for the next parser
            } catch (IOException | RuntimeException e) {
                // a parser of bytes in memory has nothing to fail at closing; and it is done with either way
            }
        }
    }

    private LogEntry read(long line, JsonParser parser, byte[] bytes, int offset, int length, long lastSeq)
            throws IOException {
        if (parser.nextToken() != JsonToken.START_OBJECT || !parser.nextFieldName(SEQ)) {
            return null;
        }
        JsonToken token = parser.nextToken();
        if (token != JsonToken.VALUE_NUMBER_INT || parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
            return null;
        }
        long seq = parser.getLongValue();
        if (seq <= lastSeq || seq < 1 || !parser.nextFieldName(TYPE) || parser.nextToken() != JsonToken.VALUE_STRING) {
            return null;
        }
        EngineEvent event = readRest(parser);
        if (event == null || !nothingAfterTheObject(parser, bytes, offset, length)) {
            return null;
        }
        // readRest read the line by the layout of its type, the one it keeps as the recent one.
        return LogEntry.ofText(line, seq, recent.type(), event, Arrays.copyOfRange(bytes, offset, offset + length));
    }

    /**
     * Whether the line holds only JSON whitespace after the object the parser just closed: what a parser of the
     * line alone finds when it reads on to the end. Told from the parser's byte offset, not by reading on (the
     * next line would be read). The byte before must be the closing brace, which holds the offsets to each other.
     */
    private boolean nothingAfterTheObject(JsonParser parser, byte[] bytes, int offset, int length) {
        long after = parser.currentLocation().getByteOffset() - feed.lineStart();
        if (after < 1 || after > length || bytes[offset + (int) after - 1] != '}') {
            return false;
        }
        for (int i = offset + (int) after; i < offset + length; i++) {
            byte b = bytes[i];
            if (b != ' ' && b != '\t' && b != '\r' && b != '\n') {
                return false;
            }
        }
        return true;
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
        fields.start(layout.fields(), layout.fieldNames(), layout.shapes(), layout.requiredCount());
        SerializableString[] names = layout.names();
        // Each name is first matched, as bytes, against the field our writer writes next (the schema's order):
        // no name made or looked up. Any other name is read and looked up as before.
        int expected = 0;
        while (true) {
            int index;
            if (expected < names.length && parser.nextFieldName(names[expected])) {
                index = expected;
            } else {
                JsonToken token = expected < names.length ? parser.currentToken() : parser.nextToken();
                if (token != JsonToken.FIELD_NAME) {
                    return token == JsonToken.END_OBJECT && fields.complete() ? layout.decoder().apply(fields) : null;
                }
                index = fields.indexOf(parser.currentName());
            }
            if (index < 0 || fields.seen(index) || !reader.read(index, parser, parser.nextToken())) {
                return null;
            }
            expected = index + 1;
        }
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
        if (length >= BY_LENGTH.length) {
            return null;
        }
        for (Layout layout : BY_LENGTH[length]) {
            if (matches(layout, text, start, length)) {
                recent = layout;
                return layout;
            }
        }
        return null;
    }

    private static Layout[][] byLength(Layout[] layouts) {
        int longest = Arrays.stream(layouts).mapToInt(layout -> layout.name().length).max().orElse(0);
        Layout[][] byLength = new Layout[longest + 1][];
        for (int length = 0; length <= longest; length++) {
            int of = length;
            byLength[length] = Arrays.stream(layouts).filter(layout -> layout.name().length == of).toArray(Layout[]::new);
        }
        return byLength;
    }

    private static boolean matches(Layout layout, char[] text, int start, int length) {
        return layout.name().length == length && Arrays.equals(layout.name(), 0, length, text, start, start + length);
    }
}
