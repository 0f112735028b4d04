package io.kvledger.infrastructure.log;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.kvledger.domain.group.PerGroup;
import java.util.ArrayList;
import java.util.List;

/** The fields of a line parsed into a tree and checked by {@link EventSchema}. */
final class TreeFields implements LineFields {

    private static final ObjectMapper LENIENT = JsonMapper.builder().build();

    private final JsonNode line;
    private final int groupCount;

    TreeFields(JsonNode line) {
        this(line, 1);
    }

    /** The fields of a line of a log whose {@code EngineConfigured} gives {@code groupCount} groups. */
    TreeFields(JsonNode line, int groupCount) {
        this.line = line;
        this.groupCount = groupCount;
    }

    @Override
    public int i(String field) {
        return line.get(field).intValue();
    }

    @Override
    public long l(String field) {
        return line.get(field).longValue();
    }

    @Override
    public boolean b(String field) {
        return line.get(field).booleanValue();
    }

    @Override
    public String s(String field) {
        return line.get(field).textValue();
    }

    @Override
    public boolean isNull(String field) {
        JsonNode value = line.get(field);
        return value != null && value.isNull();
    }

    @Override
    public List<Integer> ints(String field) {
        return each(field, JsonNode::intValue);
    }

    @Override
    public List<Long> longs(String field) {
        return each(field, JsonNode::longValue);
    }

    @Override
    public List<String> strings(String field) {
        return each(field, JsonNode::textValue);
    }

    @Override
    public Integer optionalInt(String field) {
        JsonNode value = line.get(field);
        return value == null ? null : value.intValue();
    }

    @Override
    public Boolean optionalBoolean(String field) {
        JsonNode value = line.get(field);
        return value == null ? null : value.booleanValue();
    }

    @Override
    public String optionalString(String field) {
        JsonNode value = line.get(field);
        return value != null && value.isTextual() ? value.textValue() : null;
    }

    @Override
    public Object id(String field) {
        JsonNode value = line.get(field);
        if (value == null || value.isNull()) {
            return null;
        }
        if (value.isTextual()) {
            return value.textValue();
        }
        if (value.isInt()) {
            return value.intValue();
        }
        if (value.isLong()) {
            return value.longValue();
        }
        try {
            return LENIENT.treeToValue(value, Object.class);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e.getOriginalMessage(), e);
        }
    }

    @Override
    public PerGroup<Integer> groupInts(String field) {
        return perGroup(field, v -> v.isNull() ? null : v.intValue());
    }

    @Override
    public PerGroup<String> groupStrings(String field) {
        return perGroup(field, JsonNode::textValue);
    }

    /** One list for one group (a null block kept as {@code null}), else one list per group. */
    private <T> PerGroup<T> perGroup(String field, java.util.function.Function<JsonNode, T> element) {
        JsonNode value = line.get(field);
        if (groupCount == 1) {
            return PerGroup.single(elements(value, element));
        }
        List<List<T>> lists = new ArrayList<>(groupCount);
        for (JsonNode list : value) {
            lists.add(elements(list, element));
        }
        return PerGroup.of(lists);
    }

    private static <T> List<T> elements(JsonNode array, java.util.function.Function<JsonNode, T> element) {
        List<T> values = new ArrayList<>(array.size());
        for (JsonNode value : array) {
            values.add(element.apply(value));
        }
        return values;
    }

    /** The array {@code field}, each element read by {@code element}. */
    private <T> List<T> each(String field, java.util.function.Function<JsonNode, T> element) {
        JsonNode array = line.get(field);
        List<T> values = new ArrayList<>(array.size());
        for (JsonNode value : array) {
            values.add(element.apply(value));
        }
        return values;
    }
}
