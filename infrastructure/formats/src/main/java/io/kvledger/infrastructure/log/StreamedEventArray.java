package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.kvledger.domain.event.EngineEvent;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A JSON array of events, each the log's line without {@code seq} ({@code [{"type":"...",...},...]}, how a
 * stored step keeps its events), read with the streaming parser straight into the events, the schema
 * checked token by token, the way {@link StreamedLines} reads a log's line: no tree, no data binding.
 * It takes only arrays it is sure of, those our writers write: each element {@code type} first, a known
 * type, exactly its required fields once each, each of its shape, nothing after the array. For anything
 * else it says {@code null} and the caller reads the array by its tree path (which upcasts, skips unknown
 * types and names what is wrong).
 */
public final class StreamedEventArray {

    /**
     * One reader per thread, kept: its table of recent ids and keys ({@link RecentStrings}) is too big to
     * make again for every step, and ids read again across steps come out canonical.
     */
    private static final ThreadLocal<StreamedLines> READERS = ThreadLocal.withInitial(StreamedLines::new);

    private StreamedEventArray() {
    }

    /** The events of the array in {@code bytes}, or {@code null} when the tree path must read it. */
    public static List<EngineEvent> read(byte[] bytes) {
        try (JsonParser parser = StreamedLines.parser(bytes, 0, bytes.length)) {
            return read(parser, READERS.get());
        } catch (IOException | RuntimeException e) {
            return null; // the tree path will say what is wrong, in its words
        }
    }

    private static List<EngineEvent> read(JsonParser parser, StreamedLines events) throws IOException {
        if (parser.nextToken() != JsonToken.START_ARRAY) {
            return null;
        }
        List<EngineEvent> read = new ArrayList<>();
        JsonToken token;
        for (token = parser.nextToken(); token == JsonToken.START_OBJECT; token = parser.nextToken()) {
            if (!"type".equals(parser.nextFieldName()) || parser.nextToken() != JsonToken.VALUE_STRING) {
                return null;
            }
            EngineEvent event = events.readRest(parser);
            if (event == null) {
                return null;
            }
            read.add(event);
        }
        if (token != JsonToken.END_ARRAY || parser.nextToken() != null) {
            return null;
        }
        return read;
    }
}
