package io.kvledger.infrastructure.log;

import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.group.PerGroup;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The first reader of a line in {@link EventLogReader}: a line in exactly the layout the writers write
 * (kvledger's {@code LogLineEncoder} and the capture, both in the contract's spacing:
 * {@code {"seq": N, "type": "T", "f": V, ...}}, the fields in {@link EventSchema}'s order) decoded straight
 * from its bytes, with no token stream: the type's {@link ByteLayout} says which field comes next and its kind,
 * each field name is compared as bytes with the one the layout has next, and a {@link ByteCursor} reads the values
 * (numbers from their digits, strings of printable ASCII, arrays byte by byte); a grouped log's per-group fields in
 * their shapes (contract 7.2).
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

    private static final byte[] SEQ = ByteCursor.ascii("{\"seq\": ");
    private static final byte[] TYPE = ByteCursor.ascii(", \"type\": \"");
    private static final byte[] TRUE = ByteCursor.ascii("true");
    private static final byte[] FALSE = ByteCursor.ascii("false");

    private final ByteCursor cursor;
    private final StreamedFields fields;
    private List<KvCacheGroup> groups;
    /** The layout of the line before, as its index: most lines are of the type of some line shortly before. */
    private int recent;
    private int[] ints = new int[64];

    ByteLines(RecentStrings strings) {
        this.cursor = new ByteCursor(strings);
        this.fields = new StreamedFields();
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
        ByteCursor in = cursor;
        in.start(bytes, offset, length);
        try {
            if (!in.skip(SEQ) || !in.readNumber()) {
                return null;
            }
            long seq = in.number();
            if (seq <= lastSeq || seq < 1 || !in.skip(TYPE)) {
                return null;
            }
            int known = in.skipName(ByteLayout.NAMES, recent);
            if (known < 0) {
                return null;
            }
            recent = known;
            ByteLayout layout = ByteLayout.ALL[known];
            fields.start(layout.fields(), layout.fieldNames(), layout.shapes(), layout.requiredCount());
            byte[][] prefixes = layout.prefixes();
            for (int i = 0; i < layout.requiredCount(); i++) {
                if (!in.skip(prefixes[i]) || !readField(layout, i)) {
                    return null;
                }
            }
            for (int i = layout.requiredCount(); i < prefixes.length; i++) {
                if (in.skip(prefixes[i]) && !readField(layout, i)) {
                    return null;
                }
            }
            if (!in.atLast((byte) '}')) {
                return null;
            }
            EngineEvent event = layout.decoder().apply(fields);
            byte[] text = new byte[length];
            System.arraycopy(bytes, offset, text, 0, length);
            return LogEntry.ofText(line, seq, layout.type(), event, text);
        } catch (RuntimeException e) {
            return null; // an array the cursor declined, or an event whose record refuses the values: the tree path says why
        } finally {
            in.clear();
        }
    }

    private boolean readField(ByteLayout layout, int index) {
        ByteCursor in = cursor;
        FieldKind kind = layout.kinds()[index];
        if (groups != null && layout.shapes().perGroup()[index]) {
            return readPerGroup(index, kind, layout.shapes().mayHoldNull() == index);
        }
        switch (kind) {
            case INT:
                return in.readInt() && put(index, in.number());
            case LONG:
                return in.readNumber() && put(index, in.number());
            case NULLABLE_INT:
                if (in.skipNull()) {
                    fields.putNull(index);
                    return true;
                }
                return in.readInt() && put(index, in.number());
            case COUNT:
                return in.readInt() && in.number() >= 0 && put(index, in.number());
            case BOOLEAN:
                return in.skipLiteral(TRUE) ? put(index, 1) : in.skipLiteral(FALSE) && put(index, 0);
            case STRING: {
                String text = in.readString();
                return text != null && putValue(index, text);
            }
            case ID: {
                String text = in.readString();
                return text != null && !text.isEmpty() && putValue(index, text);
            }
            case ENUM: {
                int choice = in.readChoice(layout.allowedBytes()[index]);
                return choice >= 0 && putValue(index, layout.fields().get(index).allowed().get(choice)); // the schema's own string
            }
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

    private boolean readInts(int index) {
        ByteCursor in = cursor;
        int n = 0;
        if (in.openArray()) {
            do {
                if (!in.readInt()) {
                    return false;
                }
                if (n == ints.length) {
                    ints = Arrays.copyOf(ints, n * 2);
                }
                ints[n++] = (int) in.number();
            } while (in.nextElement());
        }
        return putValue(index, StreamedFields.intList(ints, n));
    }

    private boolean readLongs(int index) {
        ByteCursor in = cursor;
        List<Long> list = new ArrayList<>();
        if (in.openArray()) {
            do {
                if (!in.readNumber()) {
                    return false;
                }
                list.add(in.number());
            } while (in.nextElement());
        }
        return putValue(index, list);
    }

    private boolean readStrings(int index) {
        ByteCursor in = cursor;
        List<String> list = new ArrayList<>();
        if (in.openArray()) {
            do {
                String text = in.readString();
                if (text == null) {
                    return false;
                }
                list.add(text);
            } while (in.nextElement());
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
        ByteCursor in = cursor;
        List<List<Object>> lists = new ArrayList<>(groups.size());
        if (in.openArray()) {
            do {
                if (lists.size() == groups.size()) {
                    return false;
                }
                List<Object> list = elements(kind, mayHoldNull && groups.get(lists.size()).isSliding());
                if (list == null) {
                    return false;
                }
                lists.add(list);
            } while (in.nextElement());
        }
        return lists.size() == groups.size() && putValue(index, PerGroup.of(lists));
    }

    /** One group's list: integers (or {@code null} where allowed) or strings; {@code null} when it is not that. */
    private List<Object> elements(FieldKind kind, boolean nullAllowed) {
        ByteCursor in = cursor;
        List<Object> list = new ArrayList<>();
        if (in.openArray()) {
            do {
                if (kind == FieldKind.STRING_ARRAY) {
                    String text = in.readString();
                    if (text == null) {
                        return null;
                    }
                    list.add(text);
                } else if (nullAllowed && in.skipNull()) {
                    list.add(null);
                } else if (in.readInt()) {
                    list.add((int) in.number());
                } else {
                    return null;
                }
            } while (in.nextElement());
        }
        return list;
    }
}
