package io.kvledger.infrastructure.log;

import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.group.PerGroup;
import java.util.List;

/**
 * The fields of one line of a known type, by their position in the type's {@link EventSchema} fields: what the
 * fast readers put there ({@link ByteLines} from the line's bytes, {@link TokenFieldReader} from Jackson's tokens,
 * each checking a value before it puts it) and what the event's decoder reads back ({@link LineFields}). A line
 * one of them cannot read exactly goes to the tree path, which says why. Reused from line to line.
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

    /** Field {@code index} is the number {@code value} (an integer, or 0 and 1 for a boolean). */
    void putNumber(int index, long value) {
        numbers[index] = value;
        nulls[index] = false;
        seen |= 1 << index;
    }

    /** Field {@code index} is {@code value} (a string, a list, a {@link PerGroup}). */
    void putValue(int index, Object value) {
        values[index] = value;
        nulls[index] = false;
        seen |= 1 << index;
    }

    /** Field {@code index} is JSON {@code null} (a nullable int). */
    void putNull(int index) {
        nulls[index] = true;
        seen |= 1 << index;
    }

    /** The first {@code n} ints as the immutable list this reader makes of an int array. */
    static List<Integer> intList(int[] ints, int n) {
        return boxed(ints, n);
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

    /** The schema's field at {@code index} of the line's type. */
    EventSchema.Field field(int index) {
        return fields.get(index);
    }

    /** Whether field {@code index} is read per group: a per-group field (contract 7.2) of a grouped log. */
    boolean isPerGroup(int index) {
        return groups != null && shapes.perGroup()[index];
    }

    /** Whether field {@code index} is the one whose sliding-window lists may hold the null block. */
    boolean mayHoldNull(int index) {
        return shapes.mayHoldNull() == index;
    }

    /** The log's groups ({@code null}: none). */
    List<KvCacheGroup> groups() {
        return groups;
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
