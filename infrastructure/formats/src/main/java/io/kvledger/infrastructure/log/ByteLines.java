package io.kvledger.infrastructure.log;

import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.group.PerGroup;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The first reader of a line in {@link EventLogReader}: a line in exactly the layout the writers write
 * (kvledger's {@code LogLineEncoder} and the capture, both in the contract's spacing:
 * {@code {"seq": N, "type": "T", "f": V, ...}}, the fields in {@link EventSchema}'s order) decoded straight
 * from its bytes, with no token stream: each field name compared as bytes with the one the layout has next,
 * numbers made from their digits, strings of printable ASCII copied (ids and keys through {@link RecentStrings}),
 * arrays of integers and strings walked byte by byte, a grouped log's per-group fields in their shapes
 * (contract 7.2).
 *
 * <p>It takes only what it is sure of and says {@code null} at the first byte it is not: another field order,
 * an extra or missing field, other whitespace, an escape or a non-ASCII byte in a string, a number with a
 * fraction, an exponent, a leading zero, {@code -0}, an integer outside its field's range (or past a long),
 * an unknown type, a configuration, an envelope, anything after the closing brace. The line then goes to
 * {@link StreamedLines} and, if that declines too, to the tree path, so every message and every event of a
 * line it leaves is exactly today's. Whatever it takes, the tree path reads into an equal event
 * ({@code ByteLinesTest}, and the property test over simulated logs of every model and the foreign logs).
 * Reused from line to line; not thread-safe.
 */
final class ByteLines {

    /** A string longer than this is left to Jackson, which holds strings to its own limit. */
    private static final int LONGEST_STRING = 1 << 20;
    private static final byte[] SEQ = ascii("{\"seq\": ");
    private static final byte[] TYPE = ascii(", \"type\": \"");
    private static final byte[] NULL = ascii("null");
    private static final byte[] TRUE = ascii("true");
    private static final byte[] FALSE = ascii("false");

    /** A known type as its bytes are laid out: its name, each field's {@code , "name": } and shape. */
    private record Layout(String type, byte[] name, List<EventSchema.Field> fields, String[] fieldNames,
            byte[][] prefixes, FieldKind[] kinds, byte[][][] allowedBytes, StreamedFields.Shapes shapes,
            Function<LineFields, EngineEvent> decoder, int requiredCount) {

        static Layout of(String type) {
            List<EventSchema.Field> fields = new ArrayList<>(EventSchema.requiredFields(type));
            int required = fields.size();
            fields.addAll(EventSchema.optionalFields(type)); // the writer's order: required, then the optional ones
            int n = fields.size();
            String[] names = new String[n];
            byte[][] prefixes = new byte[n][];
            FieldKind[] kinds = new FieldKind[n];
            byte[][][] allowed = new byte[n][][];
            for (int i = 0; i < n; i++) {
                EventSchema.Field field = fields.get(i);
                names[i] = field.name();
                prefixes[i] = ascii(", \"" + field.name() + "\": ");
                kinds[i] = field.kind();
                allowed[i] = field.allowed().stream().map(ByteLines::ascii).toArray(byte[][]::new);
            }
            return new Layout(type, ascii(type), List.copyOf(fields), names, prefixes, kinds, allowed,
                    StreamedFields.Shapes.of(type, fields), EventDecoders.decoderOf(type), required);
        }
    }

    private static final Layout[] LAYOUTS = EventDecoders.types().stream()
            .filter(type -> !"EngineConfigured".equals(type)) // a configuration is checked as a config: the tree path's
            .filter(type -> StreamedFields.fits(EventSchema.requiredFields(type)))
            .sorted() // a fixed order, whatever the decoders' map holds
            .map(Layout::of)
            .toArray(Layout[]::new);

    private final RecentStrings strings;
    private final StreamedFields fields;
    private List<KvCacheGroup> groups;
    /** The layout of the line before: most lines are of the type of some line shortly before. */
    private Layout recent = LAYOUTS[0];
    private int[] ints = new int[64];

    /** The line being read, and the position of the next byte. */
    private byte[] b;
    private int pos;
    private int end;
    /** The last number read. */
    private long number;

    ByteLines(RecentStrings strings) {
        this.strings = strings;
        this.fields = new StreamedFields(strings);
    }

    /** Reads the lines of a log whose {@code EngineConfigured} gives {@code configured} ({@code null}: none). */
    void configure(List<KvCacheGroup> configured) {
        this.groups = configured;
        fields.configure(configured);
    }

    /** Whether the log has groups (contract 7.1): without them a {@code WindowBlocksFreed} is an unknown type (7.8). */
    boolean grouped() {
        return groups != null;
    }

    /**
     * The entry of the line, or {@code null} when the other readers must read it.
     *
     * @param lastSeq the seq of the line before; the line's seq must exceed it
     */
    LogEntry read(long line, byte[] bytes, int offset, int length, long lastSeq) {
        b = bytes;
        pos = offset;
        end = offset + length;
        try {
            if (!skip(SEQ) || !readNumber()) {
                return null;
            }
            long seq = number;
            if (seq <= lastSeq || seq < 1 || !skip(TYPE)) {
                return null;
            }
            Layout layout = layout();
            if (layout == null) {
                return null;
            }
            fields.start(layout.fields(), layout.fieldNames(), layout.shapes(), layout.requiredCount());
            byte[][] prefixes = layout.prefixes();
            for (int i = 0; i < layout.requiredCount(); i++) {
                if (!skip(prefixes[i]) || !readField(layout, i)) {
                    return null;
                }
            }
            for (int i = layout.requiredCount(); i < prefixes.length; i++) {
                if (skip(prefixes[i]) && !readField(layout, i)) {
                    return null;
                }
            }
            if (pos != end - 1 || b[pos] != '}') {
                return null;
            }
            EngineEvent event = layout.decoder().apply(fields);
            byte[] text = new byte[length];
            System.arraycopy(bytes, offset, text, 0, length);
            return LogEntry.ofText(line, seq, layout.type(), event, text);
        } catch (RuntimeException e) {
            return null; // an event whose record refuses the values: the tree path says why, in its words
        } finally {
            b = null;
        }
    }

    /** The layout of the type name at {@code pos} (after its opening quote), past its closing quote; {@code null} if unknown. */
    private Layout layout() {
        int start = pos;
        int quote = start;
        while (quote < end && b[quote] != '"') {
            quote++;
        }
        if (quote == end) {
            return null;
        }
        pos = quote + 1;
        if (named(recent, start, quote)) {
            return recent;
        }
        for (Layout layout : LAYOUTS) {
            if (named(layout, start, quote)) {
                recent = layout;
                return layout;
            }
        }
        return null;
    }

    private boolean named(Layout layout, int from, int to) {
        byte[] name = layout.name();
        return name.length == to - from && Arrays.equals(name, 0, name.length, b, from, to);
    }

    private boolean readField(Layout layout, int index) {
        FieldKind kind = layout.kinds()[index];
        if (groups != null && layout.shapes().perGroup()[index]) {
            return readPerGroup(index, kind, layout.shapes().mayHoldNull() == index);
        }
        switch (kind) {
            case INT:
                return readInt() && put(index, number);
            case LONG:
                return readNumber() && put(index, number);
            case NULLABLE_INT:
                if (skipLiteral(NULL)) {
                    fields.putNull(index);
                    return true;
                }
                return readInt() && put(index, number);
            case COUNT:
                return readInt() && number >= 0 && put(index, number);
            case BOOLEAN:
                return skipLiteral(TRUE) ? put(index, 1) : skipLiteral(FALSE) && put(index, 0);
            case STRING: {
                String text = readString();
                return text != null && putValue(index, text);
            }
            case ID: {
                String text = readString();
                return text != null && !text.isEmpty() && putValue(index, text);
            }
            case ENUM:
                return readChoice(index, layout.allowedBytes()[index], layout.fields().get(index).allowed());
            case INT_ARRAY:
                return readInts(index);
            case LONG_ARRAY:
                return readLongs(index);
            case STRING_ARRAY:
                return readStrings(index);
            default:
                return false;
        }
    }

    private boolean put(int index, long value) {
        fields.putNumber(index, value);
        return true;
    }

    private boolean putValue(int index, Object value) {
        fields.putValue(index, value);
        return true;
    }

    /**
     * An integer at {@code pos} into {@link #number}: an optional minus, then digits without a leading zero, within
     * a long (but {@code -2^63}), and not {@code -0}; the byte after it must end a value ({@code ,} {@code ]} {@code }}), so
     * a fraction, an exponent or anything else is left to Jackson.
     */
    private boolean readNumber() {
        int p = pos;
        boolean negative = p < end && b[p] == '-';
        if (negative) {
            p++;
        }
        int start = p;
        long value = 0;
        while (p < end) {
            int digit = b[p] - '0';
            if (digit < 0 || digit > 9) {
                break;
            }
            if (value > (Long.MAX_VALUE - digit) / 10) {
                return false; // past a long (and -2^63 too, whose magnitude is): Jackson's
            }
            value = value * 10 + digit;
            p++;
        }
        int digits = p - start;
        if (digits == 0 || (digits > 1 && b[start] == '0') || (negative && value == 0) || !endsValue(p)) {
            return false;
        }
        number = negative ? -value : value;
        pos = p;
        return true;
    }

    /** {@link #readNumber()} of a value within Java's {@code int}, the range the tree path holds an integer field to. */
    private boolean readInt() {
        return readNumber() && number >= Integer.MIN_VALUE && number <= Integer.MAX_VALUE;
    }

    private boolean endsValue(int p) {
        if (p >= end) {
            return false;
        }
        byte next = b[p];
        return next == ',' || next == ']' || next == '}';
    }

    /** {@code true}, {@code false} or {@code null} at {@code pos}, as a whole value: skipped when it is there. */
    private boolean skipLiteral(byte[] literal) {
        if (end - pos < literal.length || !Arrays.equals(literal, 0, literal.length, b, pos, pos + literal.length)
                || !endsValue(pos + literal.length)) {
            return false;
        }
        pos += literal.length;
        return true;
    }

    /** Skips {@code expected} when the bytes at {@code pos} are exactly it. */
    private boolean skip(byte[] expected) {
        int n = expected.length;
        if (end - pos < n) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (b[pos + i] != expected[i]) {
                return false;
            }
        }
        pos += n;
        return true;
    }

    /**
     * A string of printable ASCII at {@code pos}, quotes included; {@code null} at an escape, a control character
     * or a byte of a multi-byte character (Jackson reads those), or past {@value #LONGEST_STRING} bytes.
     */
    private String readString() {
        if (pos >= end || b[pos] != '"') {
            return null;
        }
        int start = pos + 1;
        int p = start;
        int limit = Math.min(end, start + LONGEST_STRING);
        while (p < limit) {
            byte c = b[p];
            if (c == '"') {
                pos = p + 1;
                return strings.ofAscii(b, start, p - start);
            }
            if (c == '\\' || c < 0x20) { // a byte of 0x80 and above is negative
                return null;
            }
            p++;
        }
        return null;
    }

    /** An enum's name among {@code allowed}: the schema's own constant string. */
    private boolean readChoice(int index, byte[][] allowed, List<String> names) {
        if (pos >= end || b[pos] != '"') {
            return false;
        }
        int start = pos + 1;
        for (int i = 0; i < allowed.length; i++) {
            byte[] name = allowed[i];
            int close = start + name.length;
            if (close < end && b[close] == '"' && Arrays.equals(name, 0, name.length, b, start, close)) {
                pos = close + 1;
                return putValue(index, names.get(i));
            }
        }
        return false;
    }

    /** {@code [} then {@code ]}, or the first element: {@code false} when the array is empty (skipped) or not an array. */
    private boolean openArray() {
        if (pos >= end || b[pos] != '[') {
            throw Decline.INSTANCE;
        }
        pos++;
        if (pos < end && b[pos] == ']') {
            pos++;
            return false;
        }
        return true;
    }

    /** After an element: {@code true} at {@code , } (another follows), {@code false} at {@code ]} (skipped). */
    private boolean nextElement() {
        if (pos < end && b[pos] == ']') {
            pos++;
            return false;
        }
        if (end - pos >= 2 && b[pos] == ',' && b[pos + 1] == ' ') {
            pos += 2;
            return true;
        }
        throw Decline.INSTANCE;
    }

    private boolean readInts(int index) {
        int n = 0;
        if (openArray()) {
            do {
                if (!readInt()) {
                    return false;
                }
                if (n == ints.length) {
                    ints = Arrays.copyOf(ints, n * 2);
                }
                ints[n++] = (int) number;
            } while (nextElement());
        }
        return putValue(index, StreamedFields.intList(ints, n));
    }

    private boolean readLongs(int index) {
        List<Long> list = new ArrayList<>();
        if (openArray()) {
            do {
                if (!readNumber()) {
                    return false;
                }
                list.add(number);
            } while (nextElement());
        }
        return putValue(index, list);
    }

    private boolean readStrings(int index) {
        List<String> list = new ArrayList<>();
        if (openArray()) {
            do {
                String text = readString();
                if (text == null) {
                    return false;
                }
                list.add(text);
            } while (nextElement());
        }
        return putValue(index, list);
    }

    /**
     * A per-group field of a grouped log: with one group the flat list, with {@code G} >= 2 exactly {@code G} lists;
     * {@code null} entries only in a sliding group's list of the field that may hold them (as {@link StreamedFields}
     * reads it).
     */
    private boolean readPerGroup(int index, FieldKind kind, boolean mayHoldNull) {
        if (kind != FieldKind.INT_ARRAY && kind != FieldKind.STRING_ARRAY) {
            return false;
        }
        if (groups.size() == 1) {
            List<Object> list = elements(kind, mayHoldNull && groups.get(0).isSliding());
            return list != null && putValue(index, PerGroup.single(list));
        }
        List<List<Object>> lists = new ArrayList<>(groups.size());
        if (openArray()) {
            do {
                if (lists.size() == groups.size()) {
                    return false;
                }
                List<Object> list = elements(kind, mayHoldNull && groups.get(lists.size()).isSliding());
                if (list == null) {
                    return false;
                }
                lists.add(list);
            } while (nextElement());
        }
        return lists.size() == groups.size() && putValue(index, PerGroup.of(lists));
    }

    /** One group's list: integers (or {@code null} where allowed) or strings; {@code null} when it is not that. */
    private List<Object> elements(FieldKind kind, boolean nullAllowed) {
        List<Object> list = new ArrayList<>();
        if (openArray()) {
            do {
                if (kind == FieldKind.STRING_ARRAY) {
                    String text = readString();
                    if (text == null) {
                        return null;
                    }
                    list.add(text);
                } else if (nullAllowed && skipLiteral(NULL)) {
                    list.add(null);
                } else if (readInt()) {
                    list.add((int) number);
                } else {
                    return null;
                }
            } while (nextElement());
        }
        return list;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** Thrown inside an array at a byte that ends no element: the line is left to the other readers. */
    private static final class Decline extends RuntimeException {
        static final Decline INSTANCE = new Decline();

        private Decline() {
            super(null, null, false, false);
        }
    }
}
