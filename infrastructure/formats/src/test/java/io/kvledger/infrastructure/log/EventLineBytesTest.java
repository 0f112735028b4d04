package io.kvledger.infrastructure.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonGenerator;
import io.kvledger.domain.event.CommandRejected;
import io.kvledger.domain.event.EngineConfigured;
import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.event.RequestRegistered;
import io.kvledger.domain.event.TokensComputed;
import io.kvledger.domain.group.PerGroup;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.json.EventLineFields;
import io.kvledger.infrastructure.json.EventTypes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.StringWriter;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link LogLineEncoder} writes the bytes Jackson's byte generator writes with the serializer of each record (the
 * encoder of before, {@link #throughJackson}), for the lines {@link EventLineBytes} lays out itself and for those it
 * leaves to Jackson; and those of {@link EventLogWriter}, but for a character outside the BMP, which Jackson's byte
 * generator escapes as a surrogate pair and its text writer does not (both read back as the same string).
 */
class EventLineBytesTest {

    /** Laid out by Jackson on purpose: the configuration, once a log. */
    private static final Set<Class<?>> THROUGH_JACKSON = Set.of(EngineConfigured.class);

    @Test
    void everyEventIsWrittenAsTheWriterWritesIt() {
        assertSameBytes(EveryEvent.list());
    }

    /**
     * Every event type the log knows, each record component drawn at random (strings with quotes, backslashes,
     * control and non-ASCII characters, the ends of each number's range, per-group fields of one to three groups
     * with nulls), over many seeds, in logs long enough to cross the encoder's blocks.
     */
    @Test
    void randomEventsOfEveryTypeAreWrittenAsTheWriterWritesThem() {
        for (int seed = 0; seed < 300; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            List<EngineEvent> events = new ArrayList<>();
            for (int round = 0; round < 20; round++) {
                for (String name : EventTypes.names()) {
                    Class<? extends EngineEvent> type = EventTypes.classOf(name).orElseThrow();
                    if (type != EngineConfigured.class) {
                        events.add(randomEvent(type, random));
                    }
                }
            }
            assertSameBytes(events);
        }
    }

    /** The lines a simulation writes by the hundred thousand take the byte path, not Jackson's. */
    @Test
    void plainLinesOfEveryTypeButTheConfigurationAreLaidOutWithoutJackson() {
        SplittableRandom random = new SplittableRandom(7);
        for (String name : EventTypes.names()) {
            Class<? extends EngineEvent> type = EventTypes.classOf(name).orElseThrow();
            if (THROUGH_JACKSON.contains(type)) {
                continue;
            }
            EventLineBytes lines = new EventLineBytes(16);
            EngineEvent plain = randomEvent(type, random, true);
            assertTrue(lines.append(12, plain), () -> name + " is laid out by the byte path: " + plain);
            assertEquals(text(List.of(plain)).replace("{\"seq\": 1,", "{\"seq\": 12,"),
                    new String(lines.bytes(), 0, lines.size(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void aLineTheBytePathDeclinesAppendsNothing() {
        EventLineBytes lines = new EventLineBytes(4);
        assertTrue(lines.append(1, new TokensComputed("r", 3)));
        int size = lines.size();
        assertFalse(lines.append(2, new TokensComputed("r\"1", 4)));
        assertFalse(lines.append(3, new RequestRegistered("r\u00e9", 2, List.of(1, 2))));
        assertFalse(lines.append(4, new CommandRejected(1, "AbortRequest",
                io.kvledger.domain.event.RejectionCode.UNKNOWN_REQUEST, "why", 1.5, null)));
        assertFalse(lines.append(5, EveryEvent.list().get(0)));
        assertEquals(size, lines.size());
        assertEquals("{\"seq\": 1, \"type\": \"TokensComputed\", \"requestId\": \"r\", \"numComputedTokens\": 3}\n",
                new String(lines.bytes(), 0, lines.size(), StandardCharsets.US_ASCII));
    }

    private static void assertSameBytes(List<EngineEvent> events) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        LogLineEncoder encoder = new LogLineEncoder(bytes);
        encoder.writeAll(events);
        encoder.flush();
        String actual = bytes.toString(StandardCharsets.UTF_8);
        assertSameLines(throughJackson(events), actual);
        assertEquals(events.size(), encoder.lastSeq());
        if (events.stream().noneMatch(event -> event.toString().codePoints().anyMatch(Character::isSupplementaryCodePoint))) {
            assertSameLines(text(events), actual);
        }
    }

    private static void assertSameLines(String expected, String actual) {
        if (!expected.equals(actual)) {
            String[] want = expected.split("\n", -1);
            String[] got = actual.split("\n", -1);
            for (int i = 0; i < Math.min(want.length, got.length); i++) {
                assertEquals(want[i], got[i], "line " + (i + 1));
            }
            assertEquals(want.length, got.length, "lines");
        }
    }

    /** Every line through one reused Jackson generator, as {@link LogLineEncoder} wrote each before the byte path. */
    private static String throughJackson(List<EngineEvent> events) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        EventLineFields fields = new EventLineFields();
        try (JsonGenerator generator = EventJson.lineGenerator(bytes)) {
            long seq = 0;
            for (EngineEvent event : events) {
                fields.open(generator, ++seq, event);
                generator.writeEndObject();
                generator.writeRaw('\n');
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static String text(List<EngineEvent> events) {
        StringWriter text = new StringWriter();
        EventLogWriter writer = new EventLogWriter(text);
        writer.writeAll(events);
        return text.toString();
    }

    private static EngineEvent randomEvent(Class<? extends EngineEvent> type, SplittableRandom random) {
        return randomEvent(type, random, random.nextInt(4) != 0);
    }

    /** An event of {@code type} from its canonical constructor; {@code plain}: ASCII ids and one group, as kvledger writes. */
    private static EngineEvent randomEvent(Class<? extends EngineEvent> type, SplittableRandom random, boolean plain) {
        RecordComponent[] components = type.getRecordComponents();
        Class<?>[] types = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
            types[i] = components[i].getType();
        }
        for (int attempt = 0; ; attempt++) {
            Object[] values = new Object[components.length];
            for (int i = 0; i < components.length; i++) {
                values[i] = value(type, components[i], random, plain);
            }
            try {
                Constructor<? extends EngineEvent> canonical = type.getDeclaredConstructor(types);
                return canonical.newInstance(values);
            } catch (InvocationTargetException e) {
                if (attempt > 100) {
                    throw new AssertionError("no valid " + type.getSimpleName() + " drawn", e.getCause());
                }
            } catch (ReflectiveOperationException e) {
                throw new AssertionError(e);
            }
        }
    }

    private static Object value(Class<?> owner, RecordComponent component, SplittableRandom random, boolean plain) {
        Class<?> type = component.getType();
        if (type == String.class) {
            return string(random, plain);
        } else if (type == int.class) {
            return integer(random);
        } else if (type == long.class) {
            return longValue(random);
        } else if (type == boolean.class) {
            return random.nextBoolean();
        } else if (type == Integer.class) {
            return random.nextInt(3) == 0 ? null : Math.abs(integer(random) % 100_000);
        } else if (type == Boolean.class) {
            return random.nextInt(3) == 0 ? null : random.nextBoolean();
        } else if (type.isEnum()) {
            Object[] constants = type.getEnumConstants();
            return constants[random.nextInt(constants.length)];
        } else if (type == Object.class && owner == CommandRejected.class) {
            return switch (random.nextInt(plain ? 3 : 5)) {
                case 0 -> null;
                case 1 -> longValue(random);
                case 2 -> string(random, plain);
                case 3 -> integer(random);
                default -> random.nextDouble(); // an id as no reader gives it: Jackson's to write
            };
        }
        Type generic = component.getGenericType();
        if (generic instanceof ParameterizedType parameterized && parameterized.getActualTypeArguments()[0] instanceof Class<?> element) {
            if (type == List.class) {
                return list(element, random, plain, false);
            } else if (type == PerGroup.class) {
                int groups = plain ? 1 : 1 + random.nextInt(3);
                List<List<Object>> lists = new ArrayList<>();
                for (int g = 0; g < groups; g++) {
                    lists.add(list(element, random, plain, groups > 1 && random.nextBoolean()));
                }
                return PerGroup.of(lists);
            }
        }
        throw new AssertionError("a field of a new shape, " + owner.getSimpleName() + "." + component.getName() + " (" + generic
                + "): teach EventLineBytes and this test");
    }

    private static List<Object> list(Class<?> element, SplittableRandom random, boolean plain, boolean nulls) {
        int size = random.nextInt(5) == 0 ? 0 : random.nextInt(1, 12);
        List<Object> list = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            if (nulls && random.nextInt(3) == 0) {
                list.add(null);
            } else if (element == Integer.class) {
                list.add(integer(random));
            } else if (element == Long.class) {
                list.add(longValue(random));
            } else if (element == String.class) {
                list.add(string(random, plain));
            } else {
                fail("a list of " + element + ": teach EventLineBytes and this test");
            }
        }
        return list;
    }

    private static int integer(SplittableRandom random) {
        return switch (random.nextInt(6)) {
            case 0 -> Integer.MIN_VALUE;
            case 1 -> Integer.MAX_VALUE;
            case 2 -> random.nextInt();
            case 3 -> random.nextInt(-20, 20);
            default -> random.nextInt(100_000);
        };
    }

    private static long longValue(SplittableRandom random) {
        return switch (random.nextInt(6)) {
            case 0 -> Long.MIN_VALUE;
            case 1 -> Long.MAX_VALUE;
            case 2 -> random.nextLong();
            case 3 -> random.nextLong(-20, 20);
            default -> random.nextLong(1_000_000);
        };
    }

    /** Plain: what kvledger's ids and keys are. Else any characters JSON escapes or encodes, now and then. */
    private static String string(SplittableRandom random, boolean plain) {
        String alphabet = plain ? "abcdefghijklmnopqrstuvwxyz0123456789-_ ./:" : "ab-_ \"\\/\u0000\u0001\n\t\u001f\u007f\u0080\u00e9\u20ac\ud83d\ude00";
        int length = random.nextInt(0, 40);
        StringBuilder text = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            char c = alphabet.charAt(random.nextInt(alphabet.length()));
            if (Character.isHighSurrogate(c)) {
                text.append(c).append('\ude00');
            } else if (!Character.isLowSurrogate(c)) {
                text.append(c);
            }
        }
        return plain && length == 0 ? "r" : text.toString();
    }
}
