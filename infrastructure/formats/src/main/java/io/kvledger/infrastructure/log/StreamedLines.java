package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.infrastructure.json.EventJson;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * The fast path of {@link EventLogReader}: a line read with Jackson's streaming parser straight into
 * the event of its type, the schema checked token by token, with no tree. It takes only lines it is
 * sure of, the lines our writer writes: {@code seq} then {@code type} first, a known type, exactly its
 * required fields once each, each of its shape, no envelope, nothing after the object. For anything
 * else (a malformed line, a foreign field order, an extra field, an envelope, the first line) it says
 * {@code null} and the tree path reads the line, giving today's event or today's message. So this path
 * never accepts a line the tree path refuses, and never reads one differently (shown by
 * {@code StreamedLinesTest}).
 */
final class StreamedLines {

    /**
     * The tree path's factory, with its limits, but without its duplicate detection: this path refuses a
     * duplicate itself, and only among the fields it reads.
     */
    private static final JsonFactory FACTORY = EventJson.mapper().getFactory().copy()
            .disable(StreamReadFeature.STRICT_DUPLICATE_DETECTION.mappedFeature());

    private final StreamedFields fields = new StreamedFields();

    /**
     * The entry of a line read on the fast path, or {@code null} when the tree path must read it.
     *
     * @param lastSeq the seq of the line before; the line's seq must exceed it
     */
    LogEntry read(long line, byte[] bytes, int offset, int length, long lastSeq) {
        try (JsonParser parser = FACTORY.createParser(bytes, offset, length)) {
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
        String type = parser.getText();
        List<EventSchema.Field> required = EventSchema.requiredFields(type);
        if (required == null || !StreamedFields.fits(required) || "EngineConfigured".equals(type)) {
            return null; // unknown types keep their whole line; a configuration is checked as a config
        }
        fields.start(required);
        for (token = parser.nextToken(); token == JsonToken.FIELD_NAME; token = parser.nextToken()) {
            int index = fields.indexOf(parser.currentName());
            if (index < 0 || fields.seen(index) || !fields.read(index, parser, parser.nextToken())) {
                return null;
            }
        }
        if (token != JsonToken.END_OBJECT || parser.nextToken() != null || !fields.complete()) {
            return null;
        }
        EngineEvent event = EventDecoders.decode(type, fields);
        return LogEntry.ofText(line, seq, type, event, Arrays.copyOfRange(bytes, offset, offset + length));
    }
}
