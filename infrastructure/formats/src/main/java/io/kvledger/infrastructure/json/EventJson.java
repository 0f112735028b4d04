package io.kvledger.infrastructure.json;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import java.io.IOException;
import java.io.OutputStream;

/** Writes events as lines of the log format (contract section 3): {@code seq}, {@code type}, then the fields. */
public final class EventJson {

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            // 1e400 stays 1E+400 (a number too large), not the double Infinity, in every message.
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            // 4.0 stays 4.0 (not 4), so that a message shows a number as written (readTree).
            .configure(JsonNodeFeature.STRIP_TRAILING_BIGDECIMAL_ZEROES, false)
            .addModule(GroupFieldsJson.module())
            .build();
    private static final ObjectWriter WRITER = MAPPER.writer(new ContractPrettyPrinter());

    private EventJson() {
    }

    public static ObjectMapper mapper() {
        return MAPPER;
    }

    /**
     * The tree of one JSON value, read as {@link #mapper()} reads it, except that a number with a fraction
     * or an exponent keeps its text: {@link JsonProblems#show} then shows {@code 4.0} as {@code 4.0}, not
     * {@code 4}. {@code null} for no value at all. Every reader of a user's input (scenario, log, serve's
     * lines, config option) reads through here.
     */
    public static JsonNode readTree(byte[] bytes, int offset, int length) throws IOException {
        try (JsonParser parser = new WrittenNumbers(MAPPER.createParser(bytes, offset, length))) {
            return MAPPER.readTree(parser);
        }
    }

    /** {@link #readTree(byte[], int, int)} of a whole array. */
    public static JsonNode readTree(byte[] bytes) throws IOException {
        return readTree(bytes, 0, bytes.length);
    }

    /** {@link #readTree(byte[], int, int)} of a text. */
    public static JsonNode readTree(String text) throws JsonProcessingException {
        try (JsonParser parser = new WrittenNumbers(MAPPER.createParser(text))) {
            return MAPPER.readTree(parser);
        } catch (JsonProcessingException e) {
            throw e;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e); // a String is never short of bytes
        }
    }

    /**
     * A generator writing one value after another in the contract's spacing, with nothing between two
     * values (the caller writes the newlines): reused, it encodes lines straight to bytes.
     */
    public static JsonGenerator lineGenerator(OutputStream out) throws IOException {
        ContractPrettyPrinter spacing = new ContractPrettyPrinter();
        spacing.setRootValueSeparator(null);
        JsonGenerator generator = MAPPER.getFactory().createGenerator(out);
        generator.setPrettyPrinter(spacing);
        return generator;
    }

    public static ObjectNode toNode(long seq, EngineEvent event) {
        ObjectNode line = MAPPER.createObjectNode();
        line.put("seq", seq);
        line.put("type", EventTypes.nameOf(event));
        ObjectNode fields = MAPPER.valueToTree(event);
        if (event instanceof CommandRejected) {
            // A rejection repeats the request or job id only when the command gave one.
            removeIfNull(fields, "requestId");
            removeIfNull(fields, "jobId");
        }
        line.setAll(fields);
        return line;
    }

    public static String toLine(long seq, EngineEvent event) {
        StringBuilder line = new StringBuilder(160);
        appendOpen(line, seq, event);
        return line.append('}').toString();
    }

    /**
     * Appends the line without its closing brace, so a caller may add fields after the event's:
     * {@code {"seq": N, "type": "T", <fields>}. Written straight from the record, with no tree between:
     * a step writes hundreds of lines.
     */
    public static void appendOpen(StringBuilder line, long seq, EngineEvent event) {
        if (event instanceof CommandRejected) {
            String whole = toLine(toNode(seq, event)); // rare: its absent ids are left out, not written null
            line.append(whole, 0, whole.length() - 1);
            return;
        }
        String fields;
        try {
            fields = WRITER.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + event, e);
        }
        line.append("{\"seq\": ").append(seq).append(", \"type\": \"").append(EventTypes.nameOf(event)).append('"');
        if (fields.length() > 2) {
            line.append(", ").append(fields, 1, fields.length() - 1);
        }
    }

    /** A string as a JSON string literal, quoted and escaped. */
    public static String quoted(String text) {
        try {
            return MAPPER.writeValueAsString(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot quote " + text, e);
        }
    }

    /** A line built by {@link #toNode} (possibly with more fields), in the contract's spacing. */
    public static String toLine(ObjectNode line) {
        try {
            return WRITER.writeValueAsString(line);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + line, e);
        }
    }

    /** Any JSON value as one line in the contract's style (a space after each colon and comma). */
    public static String toLine(JsonNode node) {
        try {
            return WRITER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + node, e);
        }
    }

    private static void removeIfNull(ObjectNode node, String field) {
        if (node.has(field) && node.get(field).isNull()) {
            node.remove(field);
        }
    }
}
