package io.kvledger.application.audit;

import io.kvledger.domain.event.EngineEvent;
import io.kvledger.domain.group.GroupKeys;
import io.kvledger.domain.group.PerGroup;
import java.lang.reflect.RecordComponent;
import java.util.List;

/** An event in one line for a finding's reason: its type and fields, long keys shortened. */
public final class EventText {

    private static final int KEY_CHARS = 8;

    private EventText() {
    }

    public static String of(EngineEvent event) {
        return of(event, key -> key);
    }

    /** With each key put through {@code keyName} (to show a derived event in the log's own keys). */
    public static String of(EngineEvent event, java.util.function.UnaryOperator<String> keyName) {
        if (event == null) {
            return "nothing";
        }
        StringBuilder text = new StringBuilder(event.getClass().getSimpleName());
        RecordComponent[] components = event.getClass().getRecordComponents();
        if (components == null) {
            return text.toString();
        }
        text.append(" {");
        for (int i = 0; i < components.length; i++) {
            Object value;
            try {
                value = components[i].getAccessor().invoke(event);
            } catch (ReflectiveOperationException e) {
                value = "?";
            }
            String name = components[i].getName();
            if (value == null && givenOnly(event, name)) {
                continue; // a field of revision 6 that was not given: shown as before it existed
            }
            text.append(i == 0 ? "" : ", ").append(name).append('=')
                    .append(name.equals("keys") ? keysText(value, keyName) : value);
        }
        return text.append('}').toString();
    }

    /** The fields a log carries only when given (contract 9.1 and 9.3). */
    private static boolean givenOnly(EngineEvent event, String name) {
        if (event instanceof io.kvledger.domain.event.RequestRegistered) {
            return name.equals("maxOffloadTokens") || name.equals("maxLoadTokens") || name.equals("skipReadingPrefixCache");
        }
        return event instanceof io.kvledger.domain.event.EngineConfigured && name.equals("producer");
    }

    /** Keys shortened: one list for one group (as before groups), a list of lists for several. */
    private static Object keysText(Object value, java.util.function.UnaryOperator<String> keyName) {
        if (value instanceof PerGroup<?> perGroup) {
            if (perGroup.groupCount() == 1) {
                return shortKeys(perGroup.flat(), keyName);
            }
            StringBuilder text = new StringBuilder("[");
            for (int g = 0; g < perGroup.groupCount(); g++) {
                text.append(g == 0 ? "" : ", ").append(shortKeys(perGroup.group(g), keyName));
            }
            return text.append(']').toString();
        }
        return value instanceof List<?> keys ? shortKeys(keys, keyName) : value;
    }

    private static String shortKeys(List<?> keys, java.util.function.UnaryOperator<String> keyName) {
        StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < keys.size(); i++) {
            String key = keyName.apply(String.valueOf(keys.get(i)));
            int mark = GroupKeys.markStart(key); // a group's mark is kept whole: bac02613.../g1
            text.append(i == 0 ? "" : ", ").append(mark > KEY_CHARS + 3 ? key.substring(0, KEY_CHARS) + "..." + key.substring(mark) : key);
        }
        return text.append(']').toString();
    }
}
