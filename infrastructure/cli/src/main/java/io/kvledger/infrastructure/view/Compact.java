package io.kvledger.infrastructure.view;

import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.domain.group.GroupKeys;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Short renderings for one-line text: long lists are cut, keys shortened. */
public final class Compact {

    static final int LIST_ITEMS = 8;
    static final int KEY_CHARS = 8;

    private Compact() {
    }

    /** {@code [1, 2, 3]}, or {@code [1, 2, ... +90]} past {@link #LIST_ITEMS} items. */
    static String list(List<?> items) {
        StringBuilder text = new StringBuilder("[");
        for (int i = 0; i < items.size() && i < LIST_ITEMS; i++) {
            text.append(i == 0 ? "" : ", ").append(items.get(i));
        }
        if (items.size() > LIST_ITEMS) {
            text.append(", ... +").append(items.size() - LIST_ITEMS);
        }
        return text.append("]").toString();
    }

    /**
     * The first {@link #KEY_CHARS} characters of the key's hash, and its group mark whole: {@code bac02613.../g1}
     * (contract 7.1: equal tokens have a key in each group, so the mark is what tells them apart).
     */
    static String key(String key) {
        int mark = GroupKeys.markStart(key);
        String hash = key.substring(0, mark);
        return hash.length() <= KEY_CHARS ? key : hash.substring(0, KEY_CHARS) + "..." + key.substring(mark);
    }

    static List<String> keys(List<String> keys) {
        return keys.stream().map(Compact::key).toList();
    }

    /** An event's own fields as {@code name=value}, leaving out those every line has. */
    public static String fields(JsonNode line, String... leaveOut) {
        StringBuilder text = new StringBuilder();
        Iterator<Map.Entry<String, JsonNode>> fields = line.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            if (List.of(leaveOut).contains(field.getKey())) {
                continue;
            }
            text.append(text.length() == 0 ? "" : " ").append(field.getKey()).append('=').append(value(field.getValue(), false));
        }
        return text.toString();
    }

    /** Strings in lists are keys, shortened; a string field is shown whole. */
    private static String value(JsonNode node, boolean inList) {
        if (node.isArray()) {
            List<String> items = new ArrayList<>(node.size());
            node.forEach(item -> items.add(value(item, true)));
            return list(items);
        }
        if (node.isTextual()) {
            return inList ? key(node.textValue()) : node.textValue();
        }
        return node.toString();
    }
}
