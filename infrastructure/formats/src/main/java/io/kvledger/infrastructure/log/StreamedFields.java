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
 * The required fields of one line of a known type, read from the parser's tokens and checked as they
 * are read, against the same {@link EventSchema} the tree path uses. {@link #read} says {@code false} at
 * the first value that is not exactly what the schema asks for (wrong token, an integer past its range,
 * a string that is not well-formed Unicode, a name not among the allowed): the caller then hands the line
 * to the tree path, which says why. In a grouped log the per-group fields are read in their groups' shapes
 * (contract 7.2). Reused from line to line.
 */
final class StreamedFields implements LineFields {

    private static final int MAX_FIELDS = 16;

    /**
     * Which required fields of a type are per group (contract 7.2) and which one's sliding-window lists may
     * hold the null block ({@code -1}: none).
     */
    record Shapes(boolean[] perGroup, int mayHoldNull) {
        static Shapes of(String type, List<EventSchema.Field> required) {
            boolean[] perGroup = new boolean[required.size()];
            int mayHoldNull = -1;
            for (int i = 0; i < required.size(); i++) {
                String name = required.get(i).name();
                perGroup[i] = GroupedShapes.isPerGroup(type, name);
                if (GroupedShapes.mayHoldNull(type, name)) {
                    mayHoldNull = i;
                }
            }
            return new Shapes(perGroup, mayHoldNull);
        }
    }

    private List<EventSchema.Field> fields;
    /** The fields' names, in the fields' order. */
    private String[] names;
    private Shapes shapes;
    /** How many of {@link #fields} are required (the first ones); the rest are optional. */
    private int requiredCount;
    /** The log's groups ({@code null}: none, so every field is read in revision 4's shape). */
    private List<KvCacheGroup> groups;
    private final long[] numbers = new long[MAX_FIELDS];
    private final Object[] values = new Object[MAX_FIELDS];
    private final boolean[] nulls = new boolean[MAX_FIELDS];
    private int seen;
    private int[] intScratch = new int[64];
    private final RecentStrings strings;

    StreamedFields() {
        this(new RecentStrings());
    }

    /** Fields whose ids and keys go through {@code strings}, a table another reader of the same log may share. */
    StreamedFields(RecentStrings strings) {
        this.strings = strings;
    }

    /** Reads the lines of a log with these groups ({@code null}: none) from now on. */
    void configure(List<KvCacheGroup> configured) {
        this.groups = configured;
    }

    /**
     * Starts a line of a type with these required fields (at most {@value #MAX_FIELDS}), their names in their
     * order, and their shapes in a grouped log.
     */
    void start(List<EventSchema.Field> required, String[] fieldNames, Shapes shapes) {
        start(required, fieldNames, shapes, required.size());
    }

    /**
     * As {@link #start(List, String[], Shapes)} for a type whose first {@code requiredCount} fields are required and
     * the rest optional (read when present, checked as the schema checks them).
     */
    void start(List<EventSchema.Field> fields, String[] fieldNames, Shapes shapes, int requiredCount) {
        this.fields = fields;
        this.names = fieldNames;
        this.shapes = shapes;
        this.requiredCount = requiredCount;
        this.seen = 0;
    }

    static boolean fits(List<EventSchema.Field> required) {
        return required.size() <= MAX_FIELDS;
    }

    /** The position of a required field of the line's type, or -1 for any other name. */
    int indexOf(String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether the field at {@code index} was read already (a duplicate). */
    boolean seen(int index) {
        return (seen & (1 << index)) != 0;
    }

    /** Whether every required field was read. */
    boolean complete() {
        int required = (1 << requiredCount) - 1;
        return (seen & required) == required;
    }

    /** Field {@code index} is the number {@code value} (an integer, or 0 and 1 for a boolean): for the byte decoder. */
    void putNumber(int index, long value) {
        numbers[index] = value;
        nulls[index] = false;
        seen |= 1 << index;
    }

    /** Field {@code index} is {@code value} (a string, a list, a {@link PerGroup}): for the byte decoder. */
    void putValue(int index, Object value) {
        values[index] = value;
        nulls[index] = false;
        seen |= 1 << index;
    }

    /** Field {@code index} is JSON {@code null} (a nullable int): for the byte decoder. */
    void putNull(int index) {
        nulls[index] = true;
        seen |= 1 << index;
    }

    /** The first {@code n} ints as the immutable list this reader makes of an int array. */
    static List<Integer> intList(int[] ints, int n) {
        return boxed(ints, n);
    }

    /** Reads the value the parser is on into field {@code index}; {@code false} when it is not of the field's shape. */
    boolean read(int index, JsonParser parser, JsonToken token) throws IOException {
        EventSchema.Field field = fields.get(index);
        nulls[index] = false;
        boolean ok = groups != null && shapes.perGroup()[index] ? token == JsonToken.START_ARRAY && readPerGroup(index, parser)
                : switch (field.kind()) {
            case INT -> isInt(parser, token) && set(index, parser.getIntValue());
            case LONG -> isLong(parser, token) && set(index, parser.getLongValue());
            case NULLABLE_INT -> token == JsonToken.VALUE_NULL ? (nulls[index] = true)
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
        if (ok) {
            seen |= 1 << index;
        }
        return ok;
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
        numbers[index] = value;
        return true;
    }

    private boolean setText(int index, String text) {
        values[index] = text;
        return UnicodeText.isWellFormed(text);
    }

    /** A string read through {@link RecentStrings}: {@code null} when it was not well-formed. */
    private boolean setCanonical(int index, String text) {
        values[index] = text;
        return text != null;
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
        values[index] = boxed(intScratch, n);
        return true;
    }

    /**
     * The first {@code n} ints as an immutable list, which the event's own {@code List.copyOf} keeps as it is:
     * boxed once into an array of their number (not a copy of a larger one, which under C1 goes through the
     * reflective {@code Array.newInstance}).
     */
    private static List<Integer> boxed(int[] ints, int n) {
        switch (n) {
            case 0:
                return List.of();
            case 1:
                return List.of(ints[0]);
            case 2:
                return List.of(ints[0], ints[1]);
            default:
                Integer[] boxed = new Integer[n];
                for (int i = 0; i < n; i++) {
                    boxed[i] = ints[i];
                }
                return List.of(boxed);
        }
    }

    /**
     * A per-group field of a grouped log, on its {@code [}: with one group the flat list, with {@code G} >= 2
     * exactly {@code G} lists; {@code null} entries only in a sliding group's list of the field that may
     * hold them. Read as {@link GroupedShapes} checks it and {@link TreeFields} reads it.
     */
    private boolean readPerGroup(int index, JsonParser parser) throws IOException {
        FieldKind kind = fields.get(index).kind();
        boolean mayHoldNull = shapes.mayHoldNull() == index;
        if (groups.size() == 1) {
            List<Object> list = elements(kind, parser, mayHoldNull && groups.get(0).isSliding());
            values[index] = list == null ? null : PerGroup.single(list);
            return list != null;
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
        values[index] = PerGroup.of(lists);
        return true;
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
        values[index] = list;
        return true;
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
        values[index] = list;
        return true;
    }

    private int at(String field) {
        // The decoders name fields by the same constant strings as the schema: found by identity, without a compare.
        for (int i = 0; i < names.length; i++) {
            if (names[i] == field) {
                return i;
            }
        }
        int index = indexOf(field);
        if (index < 0) {
            throw new IllegalStateException(field + " is not a required field of this type");
        }
        return index;
    }

    @Override
    public int i(String field) {
        return (int) numbers[at(field)];
    }

    @Override
    public long l(String field) {
        return numbers[at(field)];
    }

    @Override
    public boolean b(String field) {
        return numbers[at(field)] != 0;
    }

    @Override
    public String s(String field) {
        return (String) values[at(field)];
    }

    @Override
    public boolean isNull(String field) {
        return nulls[at(field)];
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<Integer> ints(String field) {
        return (List<Integer>) values[at(field)];
    }

    @Override
    @SuppressWarnings("unchecked")
    public PerGroup<Integer> groupInts(String field) {
        Object value = values[at(field)];
        return value instanceof PerGroup<?> read ? (PerGroup<Integer>) read : PerGroup.single((List<Integer>) value);
    }

    @Override
    @SuppressWarnings("unchecked")
    public PerGroup<String> groupStrings(String field) {
        Object value = values[at(field)];
        return value instanceof PerGroup<?> read ? (PerGroup<String>) read : PerGroup.single((List<String>) value);
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<Long> longs(String field) {
        return (List<Long>) values[at(field)];
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<String> strings(String field) {
        return (List<String>) values[at(field)];
    }

    /** The streaming path reads no optional id: a line with one goes to the tree path. */
    @Override
    public Object id(String field) {
        return null;
    }

    @Override
    public Integer optionalInt(String field) {
        int index = indexOf(field);
        return index >= 0 && seen(index) ? (Integer) (int) numbers[index] : null;
    }

    @Override
    public Boolean optionalBoolean(String field) {
        int index = indexOf(field);
        return index >= 0 && seen(index) ? (Boolean) (numbers[index] != 0) : null;
    }

    /** Only {@code EngineConfigured} has an optional string, and the tree path reads it. */
    @Override
    public String optionalString(String field) {
        return null;
    }
}
