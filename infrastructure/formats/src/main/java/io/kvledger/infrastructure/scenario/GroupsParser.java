package io.kvledger.infrastructure.scenario;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.kvledger.domain.config.GroupKind;
import io.kvledger.domain.config.KvCacheGroup;
import io.kvledger.infrastructure.json.EnumNames;
import io.kvledger.infrastructure.json.EventJson;
import io.kvledger.infrastructure.json.JsonProblems;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The config field {@code groups} (contract section 7.1): a non-empty array of group objects, each with
 * {@code kind} and {@code blockSize}, {@code slidingWindow} exactly for a sliding group, and an optional
 * {@code eagle}. Anything else makes the config line malformed, naming the group and the field.
 */
public final class GroupsParser {

    private GroupsParser() {
    }

    /** The groups of a {@code groups} value written as JSON text (as {@code simulate --groups} takes it), checked as a config line's. */
    public static List<KvCacheGroup> parse(String json) {
        JsonNode value;
        try {
            value = EventJson.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(JsonProblems.parseFailure(json, e)
                    + " (give a JSON array of group objects, e.g. [{\"kind\": \"FULL\", \"blockSize\": 16}])");
        }
        if (value == null) {
            throw new IllegalArgumentException("empty: give a JSON array of group objects, e.g. [{\"kind\": \"FULL\", \"blockSize\": 16}]");
        }
        return parse(value);
    }

    /** The groups of a config line, or of a log's {@code EngineConfigured} (contract 7.8 holds it to 7.1). */
    public static List<KvCacheGroup> parse(JsonNode value) {
        if (!value.isArray() || value.isEmpty()) {
            throw new IllegalArgumentException("config field groups must be a non-empty array of group objects, was "
                    + JsonProblems.show(value));
        }
        List<KvCacheGroup> groups = new ArrayList<>(value.size());
        for (int g = 0; g < value.size(); g++) {
            groups.add(group("groups[" + g + "]", value.get(g)));
        }
        return groups;
    }

    private static KvCacheGroup group(String name, JsonNode group) {
        if (!group.isObject()) {
            throw new IllegalArgumentException("config field " + name + " must be a group object, was " + JsonProblems.show(group));
        }
        GroupKind kind = null;
        Integer blockSize = null;
        Integer window = null;
        boolean eagle = false;
        Iterator<Map.Entry<String, JsonNode>> fields = group.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            JsonNode value = field.getValue();
            switch (field.getKey()) {
                case "kind" -> kind = EnumNames.parse(GroupKind.class, value).orElseThrow(() -> new IllegalArgumentException(
                        "config field " + name + ".kind must be " + EnumNames.quoted(GroupKind.class) + ", was "
                                + JsonProblems.show(value)));
                case "blockSize" -> blockSize = ConfigParser.intAtLeast(name + ".blockSize", value, 1);
                case "slidingWindow" -> window = ConfigParser.intAtLeast(name + ".slidingWindow", value, 1);
                case "eagle" -> eagle = ConfigParser.bool(name + ".eagle", value);
                default -> throw new IllegalArgumentException("unknown config field " + name + "."
                        + io.kvledger.domain.UnicodeText.escapeLoneSurrogates(field.getKey()));
            }
        }
        if (kind == null) {
            throw new IllegalArgumentException("config field " + name + ".kind is missing");
        }
        if (blockSize == null) {
            throw new IllegalArgumentException("config field " + name + ".blockSize is missing");
        }
        if (kind == GroupKind.SLIDING_WINDOW && window == null) {
            throw new IllegalArgumentException("config field " + name + ".slidingWindow is missing (required for SLIDING_WINDOW)");
        }
        if (kind == GroupKind.FULL && window != null) {
            throw new IllegalArgumentException("config field " + name + ".slidingWindow is not allowed for a FULL group");
        }
        return new KvCacheGroup(kind, blockSize, window, eagle);
    }
}
