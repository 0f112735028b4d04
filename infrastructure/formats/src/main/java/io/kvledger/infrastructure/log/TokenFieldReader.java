package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.kvledger.domain.UnicodeText;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.group.PerGroup;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads a field's value from Jackson's tokens into {@link StreamedFields}, checked as it is read against the same
 * {@link EventSchema} the tree path uses: {@link #read} says {@code false} at the first value that is not exactly
 * what the schema asks for (wrong token, an integer past its range, a string that is not well-formed Unicode, a
 * name not among the allowed), and puts nothing then. In a grouped log the per-group fields are read in their
 * groups' shapes (contract 7.2). Reused from line to line.
 */
final class TokenFieldReader {

    private final StreamedFields fields;
    private final RecentStrings strings;
    private int[] intScratch = new int[64];

    /** Reads into {@code fields}; ids and keys go through {@code strings}, a table another reader of the log may share. */
    TokenFieldReader(StreamedFields fields, RecentStrings strings) {
        this.fields = fields;
        this.strings = strings;
    }

    /** Reads the value the parser is on into field {@code index}; {@code false} when it is not of the field's shape. */
    boolean read(int index, JsonParser parser, JsonToken token) throws IOException {
        EventSchema.Field field = fields.field(index);
        return fields.isPerGroup(index) ? token == JsonToken.START_ARRAY && readPerGroup(index, parser)
                : switch (field.kind()) {
            case INT -> isInt(parser, token) && set(index, parser.getIntValue());
            case LONG -> isLong(parser, token) && set(index, parser.getLongValue());
            case NULLABLE_INT -> token == JsonToken.VALUE_NULL ? putNull(index)
                    : isInt(parser, token) && set(index, parser.getIntValue());
            case COUNT -> isInt(parser, token) && parser.getIntValue() >= 0 && set(index, parser.getIntValue());
            case BOOLEAN -> (token == JsonToken.VALUE_TRUE || token == JsonToken.VALUE_FALSE)
                    && set(index, token == JsonToken.VALUE_TRUE ? 1 : 0);
            case STRING -> token == JsonToken.VALUE_STRING && setCanonical(index, strings.of(parser));
            case ID -> token == JsonToken.VALUE_STRING && parser.getTextLength() > 0 && setCanonical(index, strings.of(parser));
            case ENUM -> token == JsonToken.VALUE_STRING && field.allowed().contains(parser.getText())
                    && setText(index, parser.getText());
            case INT_ARRAY -> token == JsonToken.START_ARRAY && readInts(index, parser);
            case LONG_ARRAY -> token == JsonToken.START_ARRAY && readLongs(index, parser);
            case STRING_ARRAY -> token == JsonToken.START_ARRAY && readStrings(index, parser);
        };
    }

    private static boolean isInt(JsonParser parser, JsonToken token) throws IOException {
        return token == JsonToken.VALUE_NUMBER_INT && parser.getNumberType() == JsonParser.NumberType.INT;
    }

    private static boolean isLong(JsonParser parser, JsonToken token) throws IOException {
        if (token != JsonToken.VALUE_NUMBER_INT) {
            return false;
        }
        JsonParser.NumberType type = parser.getNumberType();
        return type == JsonParser.NumberType.INT || type == JsonParser.NumberType.LONG;
    }

    private boolean set(int index, long value) {
        fields.putNumber(index, value);
        return true;
    }

    private boolean putNull(int index) {
        fields.putNull(index);
        return true;
    }

    private boolean setText(int index, String text) {
        return UnicodeText.isWellFormed(text) && put(index, text);
    }

    /** A string read through {@link RecentStrings}: {@code null} when it was not well-formed. */
    private boolean setCanonical(int index, String text) {
        return text != null && put(index, text);
    }

    private boolean put(int index, Object value) {
        fields.putValue(index, value);
        return true;
    }

    private boolean readInts(int index, JsonParser parser) throws IOException {
        int n = 0;
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
            if (!isInt(parser, token)) {
                return false;
            }
            if (n == intScratch.length) {
                intScratch = Arrays.copyOf(intScratch, n * 2);
            }
            intScratch[n++] = parser.getIntValue();
        }
        return put(index, StreamedFields.intList(intScratch, n));
    }

    /**
     * A per-group field of a grouped log, on its {@code [}: with one group the flat list, with {@code G} >= 2
     * exactly {@code G} lists; {@code null} entries only in a sliding group's list of the field that may
     * hold them. Read as {@link GroupedShapes} checks it and {@link TreeFields} reads it.
     */
    private boolean readPerGroup(int index, JsonParser parser) throws IOException {
        FieldKind kind = fields.field(index).kind();
        boolean mayHoldNull = fields.mayHoldNull(index);
        List<KvCacheGroup> groups = fields.groups();
        if (groups.size() == 1) {
            List<Object> list = elements(kind, parser, mayHoldNull && groups.get(0).isSliding());
            return list != null && put(index, PerGroup.single(list));
        }
        List<List<Object>> lists = new ArrayList<>(groups.size());
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
            if (token != JsonToken.START_ARRAY || lists.size() == groups.size()) {
                return false;
            }
            List<Object> list = elements(kind, parser, mayHoldNull && groups.get(lists.size()).isSliding());
            if (list == null) {
                return false;
            }
            lists.add(list);
        }
        if (lists.size() != groups.size()) {
            return false;
        }
        return put(index, PerGroup.of(lists));
    }

    /** One group's list, after its {@code [}: integers (or {@code null} where allowed) or well-formed strings; {@code null} otherwise. */
    private List<Object> elements(FieldKind kind, JsonParser parser, boolean nullAllowed) throws IOException {
        List<Object> list = new ArrayList<>();
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
            if (kind == FieldKind.STRING_ARRAY) {
                String text = token == JsonToken.VALUE_STRING ? strings.of(parser) : null;
                if (text == null) {
                    return null;
                }
                list.add(text);
            } else if (token == JsonToken.VALUE_NULL && nullAllowed) {
                list.add(null);
            } else if (kind == FieldKind.INT_ARRAY && isInt(parser, token)) {
                list.add(parser.getIntValue());
            } else {
                return null;
            }
        }
        return list;
    }

    private boolean readLongs(int index, JsonParser parser) throws IOException {
        List<Long> list = new ArrayList<>();
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
            if (!isLong(parser, token)) {
                return false;
            }
            list.add(parser.getLongValue());
        }
        return put(index, list);
    }

    private boolean readStrings(int index, JsonParser parser) throws IOException {
        List<String> list = new ArrayList<>();
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_ARRAY; token = parser.nextToken()) {
            if (token != JsonToken.VALUE_STRING) {
                return false;
            }
            String text = strings.of(parser);
            if (text == null) {
                return false;
            }
            list.add(text);
        }
        return put(index, list);
    }
}
