package io.kvledger.application.engine;

import io.kvledger.domain.command.EngineCommand;
import io.kvledger.domain.decision.Decision;
import io.kvledger.domain.event.BlocksAllocated;
import io.kvledger.domain.event.BlocksReleased;
import io.kvledger.domain.event.ChunksEvicted;
import io.kvledger.domain.event.ChunksStored;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.PrefixMatched;
import io.kvledger.domain.event.RejectionCode;
import io.kvledger.domain.event.RequestFinished;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.StoreJobCompleted;
import io.kvledger.domain.event.StoreJobScheduled;
import io.kvledger.domain.event.TokensAppended;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.event.TokensRejected;
import io.kvledger.domain.event.TransferAcknowledged;
import io.kvledger.domain.group.PerGroup;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.RandomAccess;

/**
 * One limit for every line the product writes and reads (issue 23): every reader of a scenario, a log
 * or a store refuses a line over {@code kvledger.maxLineBytes} (8 MiB by default), so no writer may
 * write one. A command's events are longer than its scenario line ({@code [1,2]} is written
 * {@code [1, 2]}, {@code promptLength}, the store's envelope and checksum are added, a store job lists
 * a key per chunk), so a command whose events could make a line over the limit is refused before
 * anything is decided on it: its one event is a {@link CommandRejected} ({@code INVALID_ARGUMENT})
 * naming the limit and how to raise it, and the state stays as it was. A log, a store and their
 * readers then always agree: nothing is acknowledged that cannot be read back.
 *
 * <p>The bound is an upper bound of the encoded line, computed from the event's fields without
 * encoding it: {@link #OVERHEAD} bytes for seq, type, the envelope and the checksum, the exact width
 * of each number, six bytes for each character of a string (its widest escape), one separator per
 * element. Small fields are not even looked at closely, so a step of small events costs a few
 * nanoseconds an event.
 */
final class EventLineLimit {

    /** The property every reader's line limit comes from (see {@code Utf8Lines} in the formats). */
    static final String PROPERTY = "kvledger.maxLineBytes";
    /** Its default, 8 MiB, as the readers'. */
    static final int DEFAULT = 8 << 20;
    /** What a store line carries beside the event's fields: seq, type, field names, the envelope, the checksum. */
    static final int OVERHEAD = 1024;

    private static final MethodType ACCESSOR = MethodType.methodType(Object.class, Object.class);

    private static final ClassValue<MethodHandle[]> FIELDS = new ClassValue<>() {
        @Override
        protected MethodHandle[] computeValue(Class<?> type) {
            if (!type.isRecord()) {
                return new MethodHandle[0];
            }
            List<MethodHandle> handles = new ArrayList<>();
            for (RecordComponent component : type.getRecordComponents()) {
                Class<?> value = component.getType();
                if (value.isPrimitive() || value.isEnum() || Number.class.isAssignableFrom(value) || value == Boolean.class) {
                    continue; // bounded: counted in the overhead
                }
                try {
                    // Typed (Object)Object once here, so each read is an invokeExact without a per-call type check.
                    handles.add(MethodHandles.publicLookup().unreflect(component.getAccessor()).asType(ACCESSOR));
                } catch (IllegalAccessException e) {
                    throw new IllegalStateException("cannot read " + type.getName() + "." + component.getName(), e);
                }
            }
            return handles.toArray(MethodHandle[]::new);
        }
    };

    private final long limit;

    private EventLineLimit(long limit) {
        this.limit = limit;
    }

    /** The limit as this process's readers have it. */
    static EventLineLimit current() {
        return new EventLineLimit(Integer.getInteger(PROPERTY, DEFAULT));
    }

    /** A limit of {@code limit} bytes (for tests of the bound itself). */
    static EventLineLimit of(long limit) {
        return new EventLineLimit(limit);
    }

    /**
     * {@code decided}, the events of a command, itself when every one of them fits; else (another list)
     * the command's rejection naming the limit, and the command changes nothing.
     */
    List<EngineEvent> kept(List<EngineEvent> decided, long line, EngineCommand command) {
        for (int i = 0; i < decided.size(); i++) { // by index: no iterator per command
            EngineEvent event = decided.get(i);
            long bound = bound(event);
            if (bound > limit) {
                return List.of(rejection(line, command, event, bound));
            }
        }
        return decided;
    }

    private CommandRejected rejection(long line, EngineCommand command, EngineEvent event, long bound) {
        String message = "its " + event.getClass().getSimpleName() + " would make a line of up to " + bound
                + " bytes, over the " + limit + " bytes every reader of a log or store accepts (raise the limit with -D"
                + PROPERTY + "=N in KVLEDGER_JAVA_OPTS, for every writer and reader, with about 45 times as much heap)";
        CommandRejected rejected = new Decision.Rejected(RejectionCode.INVALID_ARGUMENT, message).toEvent(line, command);
        if (bound(rejected) > limit) {
            // The id itself is too long to repeat: the rejection names no id.
            rejected = new CommandRejected(line, command.name(), RejectionCode.INVALID_ARGUMENT, message, null, null);
        }
        return rejected;
    }

    /** An upper bound of the bytes of {@code event}'s line in a store (longer than in a log). */
    long bound(EngineEvent event) {
        // The two events of every decoded token, read directly: the same sum fields() makes of them.
        if (event instanceof TokensComputed computed) {
            return OVERHEAD + value(computed.requestId(), limit);
        }
        if (event instanceof TokensAppended appended) {
            long total = value(appended.requestId(), limit);
            // Its tokens are numbers (the decision checked them): collection()'s quick bound, 24 bytes each, without
            // looking at the list; only a list too long for that is walked, as collection() does.
            long quick = 24L * appended.tokens().size() + 2;
            if (total <= limit) {
                total += quick <= limit - total ? quick : value(appended.tokens(), limit - total);
            }
            return OVERHEAD + total;
        }
        long direct = directFields(event);
        return OVERHEAD + (direct >= 0 ? direct : fields(event, limit));
    }

    /** {@link #bound} read field by field through each record's accessors, as every event but the commonest is. */
    long boundByAccessors(EngineEvent event) {
        return OVERHEAD + fields(event, limit);
    }

    /**
     * What {@link #fields} sums for the common events of a step, each field read by its accessor and not a method
     * handle (which C1, the simulator's compiler, calls one by one: 8 % of its stepping thread), in the record's
     * order, stopping as {@code fields} stops; -1 for any other event. Every field {@code fields} would read is here
     * (numbers, booleans and enums are in the overhead): {@code EventLineLimitTest} holds the two to the same sums.
     */
    private long directFields(EngineEvent event) {
        if (event instanceof BlocksAllocated e) {
            return sum(e.requestId(), e.blockIds());
        }
        if (event instanceof StoreJobScheduled e) {
            return sum(e.requestId(), e.chunkIndices(), e.keys(), e.blockIds());
        }
        if (event instanceof StoreJobCompleted e) {
            return sum(e.requestId());
        }
        if (event instanceof TransferAcknowledged e) {
            return sum(e.requestId());
        }
        if (event instanceof TokensRejected e) {
            return sum(e.requestId());
        }
        if (event instanceof ChunksStored e) {
            return sum(e.keys());
        }
        if (event instanceof ChunksEvicted e) {
            return sum(e.keys());
        }
        if (event instanceof PrefixMatched e) {
            return sum(e.requestId(), e.hitChunks());
        }
        if (event instanceof BlocksReleased e) {
            return sum(e.requestId(), e.blockIds());
        }
        if (event instanceof RequestRegistered e) {
            return sum(e.requestId(), e.promptTokens());
        }
        if (event instanceof RequestFinished e) {
            return sum(e.requestId());
        }
        return -1;
    }

    /** {@link #fields}'s sum of these fields, with its early stop. */
    private long sum(Object... values) {
        long total = 0;
        for (Object value : values) {
            total += value(value, limit - total);
            if (total > limit) {
                return total;
            }
        }
        return total;
    }

    /** The fields of a record, bounded; stops early once over {@code budget}. */
    private static long fields(Object record, long budget) {
        long total = 0;
        for (MethodHandle accessor : FIELDS.get(record.getClass())) {
            Object value;
            try {
                value = (Object) accessor.invokeExact(record);
            } catch (Throwable e) {
                throw new IllegalStateException("cannot read a field of " + record.getClass().getName(), e);
            }
            total += value(value, budget - total);
            if (total > budget) {
                return total;
            }
        }
        return total;
    }

    private static long value(Object value, long budget) {
        if (value instanceof String text) { // the commonest value (ids, keys), and a final class: the cheapest check
            return text.length() * 6L <= budget ? 6L * text.length() + 4 : encoded(text) + 4;
        }
        if (value == null || value instanceof Number || value instanceof Boolean || value instanceof Enum<?>) {
            return 24;
        }
        if (value instanceof CharSequence text) {
            return text.length() * 6L <= budget ? 6L * text.length() + 4 : encoded(text) + 4;
        }
        if (value instanceof Collection<?> items) {
            return collection(items, budget);
        }
        if (value instanceof Map<?, ?> map) {
            return collection(map.keySet(), budget) + collection(map.values(), budget);
        }
        if (value instanceof PerGroup<?> perGroup) {
            return collection(perGroup.lists(), budget); // written as its list, or a list of lists (contract 7.2)
        }
        return 32 + fields(value, budget);
    }

    private static long collection(Collection<?> items, long budget) {
        long quick = 24L * items.size() + 2;
        if (items instanceof List<?> list && list instanceof RandomAccess) { // by index: no iterator per list
            if (quick <= budget && (list.isEmpty() || list.get(0) instanceof Number)) {
                return quick; // numbers: at most 20 digits, a sign and a separator each
            }
            long total = 2;
            for (int i = 0; i < list.size(); i++) {
                Object item = list.get(i);
                total += item instanceof Number number ? digits(number) + 2 : value(item, budget - total) + 2;
                if (total > budget) {
                    return total;
                }
            }
            return total;
        }
        if (quick <= budget && (items.isEmpty() || items.iterator().next() instanceof Number)) {
            return quick;
        }
        long total = 2;
        for (Object item : items) {
            total += item instanceof Number number ? digits(number) + 2 : value(item, budget - total) + 2;
            if (total > budget) {
                return total;
            }
        }
        return total;
    }

    /** The bytes of a string in JSON, at most: control characters, quotes and backslashes escaped, UTF-8 otherwise. */
    private static long encoded(CharSequence text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            bytes += c < 0x20 || c == '"' || c == '\\' ? 6 : c < 0x80 ? 1 : 3; // a surrogate pair: 4 bytes for 2 chars
        }
        return bytes;
    }

    private static int digits(Number number) {
        long value = number.longValue();
        if (value == Long.MIN_VALUE) {
            return 20;
        }
        int digits = value < 0 ? 2 : 1;
        for (long rest = Math.abs(value); rest >= 10; rest /= 10) {
            digits++;
        }
        return digits;
    }
}
